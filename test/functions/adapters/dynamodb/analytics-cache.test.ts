import { DynamoAnalyticsCache } from '#adapters/dynamodb/analytics-cache';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { analyticsCacheContract } from '#test-support/analytics-cache-contract';

let table: TestTable;
let cache: DynamoAnalyticsCache;
beforeAll(async () => {
  table = await startTestTable();
  cache = new DynamoAnalyticsCache(table.table);
});
afterAll(() => table?.stop());

analyticsCacheContract(() => cache, 9500);
