import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoIdempotentAnswers } from '#adapters/dynamodb/idempotent-answers';
import { keys } from '#adapters/dynamodb/keys';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { idempotentAnswersContract } from '#test-support/idempotent-answers-contract';

let table: TestTable;
let store: DynamoIdempotentAnswers;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoIdempotentAnswers(table.table);
});
afterAll(() => table?.stop());

idempotentAnswersContract(() => store);

test("the table's TTL removes a key's record when its answer is no longer kept (epoch seconds, as DynamoDB's TTL reads it)", async () => {
  const now = new Date('2026-11-30T12:00:00.000Z');
  await store.claim(9, 'k-ttl', 'req', now, new Date(now.getTime() + 60_000));
  await store.record(9, 'k-ttl', 'req', { statusCode: 201, headers: {}, body: '{}' }, new Date(now.getTime() + 86_400_000));
  const { Item } = await table.table.client.send(new GetCommand({ TableName: table.table.name, Key: keys.idempotentAnswer(9, 'k-ttl') }));
  expect(Item?.expires_at).toBe(now.getTime() / 1000 + 86_400);
  expect(Item).not.toHaveProperty('lease_until');
});
