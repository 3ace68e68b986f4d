import { DynamoReactionStore } from '#adapters/dynamodb/reactions';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { reactionStoreContract } from '#test-support/reaction-store-contract';

let table: TestTable;
let store: DynamoReactionStore;
let library: DynamoLibraryUsage;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoReactionStore(table.table);
  library = new DynamoLibraryUsage(table.table);
});
afterAll(() => table?.stop());

reactionStoreContract(() => store, () => library, 2000);
