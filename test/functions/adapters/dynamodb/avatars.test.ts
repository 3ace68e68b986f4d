import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { avatarStoreContract } from '#test-support/avatar-store-contract';

let table: TestTable;
let store: DynamoAvatarStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoAvatarStore(table.table);
});
afterAll(() => table?.stop());

avatarStoreContract(() => store, 8000);
