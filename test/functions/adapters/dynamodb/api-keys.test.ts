import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { apiKeyStoreContract } from '#test-support/api-key-store-contract';

let table: TestTable;
let stores: { keys: DynamoApiKeyStore; accounts: DynamoAccountStore };
beforeAll(async () => {
  table = await startTestTable();
  stores = { keys: new DynamoApiKeyStore(table.table), accounts: new DynamoAccountStore(table.table) };
});
afterAll(() => table?.stop());

apiKeyStoreContract(() => stores);
