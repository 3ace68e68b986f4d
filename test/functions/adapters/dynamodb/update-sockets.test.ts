import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/keys';
import { DynamoUpdateSocketStore } from '#adapters/dynamodb/update-sockets';
import { LIVE_UPDATE_LIMITS, topicKey } from '#domain/live-updates';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { updateSocketStoreContract } from '#test-support/update-socket-store-contract';
const { ceil } = Math;

let table: TestTable;
let store: DynamoUpdateSocketStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoUpdateSocketStore(table.table);
});
afterAll(() => table?.stop());

updateSocketStoreContract(() => store, 9300);

describe('the DynamoDB update socket store', () => {
  const ttlOf = async (key: { pk: string; sk: string }) =>
    (await table.table.client.send(new GetCommand({ TableName: table.table.name, Key: key, ConsistentRead: true }))).Item?.expires_at as number | undefined;

  it("gives every record the table's TTL, so what API Gateway forgot to close goes: a ticket at its expiry, a socket and its subscriptions past the socket's longest life", async () => {
    const expiresAt = new Date('2026-03-01T10:01:00.250Z');
    await store.saveTicket('ttl-ticket', { scopeId: 9399, expiresAt });
    expect(await ttlOf(keys.updateTicket('ttl-ticket'))).toBe(ceil(expiresAt.getTime() / 1000));

    const openedAt = '2026-03-01T10:00:00.000Z';
    const socket = { connectionId: 'ttl-socket', scopeId: 9399, openedAt };
    await store.open(socket);
    await store.subscribe(socket, { resource: 'job', id: 5 }, 10);
    const socketTtl = await ttlOf(keys.updateSocket('ttl-socket'));
    expect(socketTtl).toBeGreaterThan(Date.parse(openedAt) / 1000 + LIVE_UPDATE_LIMITS.socketMaxS);
    expect(socketTtl).toBeLessThanOrEqual(Date.parse(openedAt) / 1000 + LIVE_UPDATE_LIMITS.socketMaxS + 3600);
    expect(await ttlOf(keys.updateSubscription(9399, topicKey({ resource: 'job', id: 5 }), 'ttl-socket'))).toBe(socketTtl);
  });
});
