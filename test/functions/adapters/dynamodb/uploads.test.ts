import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { keys } from '#adapters/dynamodb/keys';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { uploadStoreContract } from '#test-support/upload-store-contract';

let table: TestTable;
let store: DynamoUploadStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoUploadStore(table.table);
});
afterAll(() => table?.stop());

uploadStoreContract(() => store);

test("the table's TTL removes a record a week after its form expired (epoch seconds, as DynamoDB's TTL reads it)", async () => {
  const expiresAt = '2026-11-25T13:00:00.000Z';
  await store.create({
    id: 'up_ttl',
    account_id: 7,
    purpose: 'demo_video',
    content_type: 'video/mp4',
    size_bytes: 1000,
    filename: null,
    key: 'uploads/7/up_ttl',
    status: 'pending',
    created_at: '2026-11-25T12:00:00.000Z',
    expires_at: expiresAt,
  });
  const { Item } = await table.table.client.send(new GetCommand({ TableName: table.table.name, Key: keys.upload(7, 'up_ttl') }));
  expect(Item?.expires_at).toBe(Date.parse(expiresAt) / 1000 + 7 * 24 * 3600);
  expect((await store.get(7, 'up_ttl'))?.expires_at).toBe(expiresAt);
});
