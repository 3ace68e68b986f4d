import { DynamoUpdateSocketStore } from '#adapters/dynamodb/update-sockets';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

let table: TestTable;
let store: DynamoUpdateSocketStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoUpdateSocketStore(table.table);
});
afterAll(() => table?.stop());

const socket = (connectionId: string, scopeId = 9301) => ({ connectionId, scopeId, openedAt: new Date().toISOString() });

describe('the DynamoDB update socket store', () => {
  it('gives a ticket once, and never one past its expiry', async () => {
    const now = new Date();
    await store.saveTicket('t1', { scopeId: 9300, expiresAt: new Date(now.getTime() + 60_000) });
    await store.saveTicket('t2', { scopeId: 9300, expiresAt: new Date(now.getTime() - 1_000) });
    expect(await store.takeTicket('t1', now)).toBe(9300);
    expect(await store.takeTicket('t1', now)).toBeUndefined();
    expect(await store.takeTicket('t2', now)).toBeUndefined();
  });

  it("finds a record's subscribers in its scope only, and none once they close", async () => {
    const job = { resource: 'job' as const, id: 7 };
    for (const connectionId of ['a', 'b']) {
      await store.open(socket(connectionId));
      expect(await store.subscribe(socket(connectionId), job, 10)).toBe('subscribed');
    }
    await store.open(socket('c', 9302));
    await store.subscribe(socket('c', 9302), job, 10);
    await store.open(socket('d'));
    await store.subscribe(socket('d'), { resource: 'job', id: 70 }, 10);

    expect((await store.subscribers(9301, job)).sort()).toEqual(['a', 'b']);
    await store.close('a');
    expect(await store.subscribers(9301, job)).toEqual(['b']);
  });
});
