import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
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
