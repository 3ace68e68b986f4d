import { DynamoPostStore } from '#adapters/dynamodb/posts';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { postStoreContract } from '#test-support/post-store-contract';

let table: TestTable;
let store: DynamoPostStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoPostStore(table.table);
});
afterAll(() => table?.stop());

postStoreContract(() => store, 6000);
