import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoUserStore } from '#adapters/dynamodb/users';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { userStoreContract } from '#test-support/user-store-contract';

let table: TestTable;
let stores: { users: DynamoUserStore; accounts: DynamoAccountStore };
beforeAll(async () => {
  table = await startTestTable();
  stores = { users: new DynamoUserStore(table.table), accounts: new DynamoAccountStore(table.table) };
});
afterAll(() => table?.stop());

userStoreContract(() => stores);
