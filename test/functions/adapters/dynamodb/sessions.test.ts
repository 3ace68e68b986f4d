import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoSessionStore } from '#adapters/dynamodb/sessions';
import { keys } from '#adapters/dynamodb/keys';
import { newSession } from '#domain/session';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { sessionStoreContract } from '#test-support/session-store-contract';

let table: TestTable;
let store: DynamoSessionStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoSessionStore(table.table);
});
afterAll(() => table?.stop());

sessionStoreContract(() => store);

test("the table's TTL attribute is the session's end in epoch seconds, and no raw token is stored", async () => {
  const session = newSession(7, 70, new Date('2026-11-25T12:00:00.000Z'));
  await store.create(session.hash, session.record);
  const { Item } = await table.table.client.send(new GetCommand({ TableName: table.table.name, Key: keys.session(session.hash) }));
  expect(Item?.expires_at).toBe(Date.parse('2026-12-02T12:00:00.000Z') / 1000);
  expect(JSON.stringify(Item)).not.toContain(session.token);
});
