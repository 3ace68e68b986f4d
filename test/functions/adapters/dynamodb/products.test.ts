import { DynamoProductStore } from '#adapters/dynamodb/products';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { productStoreContract } from '#test-support/product-store-contract';

let table: TestTable;
let store: DynamoProductStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoProductStore(table.table);
});
afterAll(() => table?.stop());

productStoreContract(() => store, 7000);
