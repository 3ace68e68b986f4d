import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { accountStoreContract } from '#test-support/account-store-contract';

let table: TestTable;
let accounts: DynamoAccountStore;
beforeAll(async () => {
  table = await startTestTable();
  accounts = new DynamoAccountStore(table.table);
});
afterAll(() => table?.stop());

accountStoreContract(() => ({ accounts }));
