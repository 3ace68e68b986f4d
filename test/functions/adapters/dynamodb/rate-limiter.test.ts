import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { storeOnTestTable } from '#test-support/dynamodb';
import { rateLimiterContract } from '#test-support/rate-limiter-contract';

const store = storeOnTestTable((table) => new DynamoRateLimiter(table));

rateLimiterContract(store);
