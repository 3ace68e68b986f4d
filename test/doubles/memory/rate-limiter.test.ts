/** The in-memory limiter the unit tests use keeps the DynamoDB limiter's rules. */
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { rateLimiterContract } from '#test-support/rate-limiter-contract';

const limiter = new MemoryRateLimiter();
rateLimiterContract(() => limiter);
