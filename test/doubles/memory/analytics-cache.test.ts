/** The in-memory analytics cache the use-case tests use keeps what the DynamoDB cache keeps. */
import { MemoryAnalyticsCache } from '#test-doubles/memory/analytics-cache';
import { analyticsCacheContract } from '#test-support/analytics-cache-contract';

const cache = new MemoryAnalyticsCache();
analyticsCacheContract(() => cache, 9500);
