import { DynamoMusicStore } from '#adapters/dynamodb/music';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { musicStoreContract } from '#test-support/music-store-contract';

let table: TestTable;
let store: DynamoMusicStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoMusicStore(table.table);
});
afterAll(() => table?.stop());

musicStoreContract(() => store, 9100);
