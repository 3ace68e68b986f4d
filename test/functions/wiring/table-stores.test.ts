/** An API function carries only the table stores its handler module names (its handler's type holds the list complete: ports.test.ts). */
import { DynamoIdempotentAnswers } from '#adapters/dynamodb/idempotent-answers';
import { apiStores, buildStores } from '#wiring/table-stores';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { DynamoSessionStore } from '#adapters/dynamodb/sessions';
import type { DynamoTable } from '#adapters/dynamodb/table';

const stores = apiStores({ products: DynamoProductStore });

test('an API function always has the stores authentication reads (key, session, rate limit) and the Idempotency-Key answers, plus those it names', () => {
  expect(stores).toEqual({
    apiKeys: DynamoApiKeyStore,
    sessions: DynamoSessionStore,
    rateLimits: DynamoRateLimiter,
    idempotentAnswers: DynamoIdempotentAnswers,
    products: DynamoProductStore,
  });
});

test('builds one instance of each named store over the table, and nothing else', () => {
  const table = { client: {}, name: 'reaction-studio' } as unknown as DynamoTable;
  const built = buildStores(table, stores);
  expect(Object.keys(built).sort()).toEqual(['apiKeys', 'idempotentAnswers', 'products', 'rateLimits', 'sessions']);
  expect(built.products).toBeInstanceOf(DynamoProductStore);
});
