import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { rateLimiterContract } from '#test-support/rate-limiter-contract';

let table: TestTable;
let limiter: DynamoRateLimiter;
beforeAll(async () => {
  table = await startTestTable();
  limiter = new DynamoRateLimiter(table.table);
});
afterAll(() => table?.stop());

rateLimiterContract(() => limiter);
