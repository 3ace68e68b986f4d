import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { smallIndexPages, startTestTable, type TestTable } from '#test-support/dynamodb';
import { jobStoreContract, type JobStoreUnderTest } from '#test-support/job-store-contract';

let table: TestTable;
let stores: JobStoreUnderTest;
beforeAll(async () => {
  table = await startTestTable();
  // Two items a page: the in-flight sets' readers follow every shard's pages.
  smallIndexPages(table.table, 2);
  stores = { jobs: new DynamoJobStore(table.table), ledger: new DynamoAllowanceLedger(table.table), videos: new DynamoVideoLibrary(table.table) };
});
afterAll(() => table?.stop());

jobStoreContract(() => stores);
