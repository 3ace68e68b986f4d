import { DynamoAnalyticsCache } from '#adapters/dynamodb/analytics-cache';
import { storeOnTestTable } from '#test-support/dynamodb';
import { analyticsCacheContract } from '#test-support/analytics-cache-contract';

const store = storeOnTestTable((table) => new DynamoAnalyticsCache(table));

analyticsCacheContract(store, 9500);
