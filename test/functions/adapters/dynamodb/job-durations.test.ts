import { DynamoJobDurations } from '#adapters/dynamodb/job-durations';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { jobDurationsContract } from '#test-support/job-durations-contract';

let table: TestTable;
let store: DynamoJobDurations;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoJobDurations(table.table);
});
afterAll(() => table?.stop());

jobDurationsContract(() => store);
