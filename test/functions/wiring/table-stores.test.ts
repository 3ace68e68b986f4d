/** An API function carries only the table stores its handler module names, and sees only those in every runtime. */
import { DynamoIdempotentAnswers } from '#adapters/dynamodb/idempotent-answers';
import { apiStores, buildStores, onlyStores } from '#wiring/table-stores';
import { testDependencies } from '#test-support/wiring';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { DynamoSessionStore } from '#adapters/dynamodb/sessions';
import type { DynamoTable } from '#adapters/dynamodb/table';
import type { Ports } from '#ports/ports';

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

describe('onlyStores', () => {
  const products = { get: async () => undefined } as unknown as Ports['products'];
  const deps = testDependencies({ products });
  const seen = onlyStores(() => deps, stores)();

  test('passes the named stores through untouched', () => {
    expect(seen.products).toBe(products);
  });

  test('any use of a store it does not name throws, saying it is not bundled and where to add it', () => {
    expect(() => seen.jobs.get).toThrow("the jobs store is not bundled with this function: add it to its handler module's stores");
    expect(() => seen.ledger).not.toThrow();
  });

  test('a hidden store can still be spread into a use case\'s deps or awaited without throwing', async () => {
    expect(() => ({ ...seen, log: undefined })).not.toThrow();
    await expect(Promise.resolve(seen.videos)).resolves.toBe(seen.videos);
  });

  test('ports that are not table stores pass through', () => {
    expect(seen.now).toBe(deps.now);
    expect(seen.blobs).toBe(deps.blobs);
  });
});
