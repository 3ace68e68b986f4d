/** The auth middleware over in-memory stores: what each credential problem answers. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createApiHandler } from '#http/api-handler';
import type { Ports } from '#ports/ports';
import type { ApiKeyStore } from '#ports/api-key-store';
import { generateKeyMaterial, hashKey } from '#domain/api-keys';
import { scopeOf } from '#domain/test-mode';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';

function event(authorization?: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /api/v1/usage',
    rawPath: '/api/v1/usage',
    rawQueryString: '',
    headers: authorization === undefined ? {} : { authorization },
    requestContext: { requestId: 'req-1', http: { method: 'GET', path: '/api/v1/usage' } } as never,
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

let accounts: MemoryAccountStore;
let apiKeys: MemoryApiKeyStore;
/** How often the operation ran: it answers 200 with the caller's principal. */
let reached: number;
let built: number;
const NOW = new Date('2026-11-22T12:00:00Z');

function handlerOver(overrides: Partial<Ports> = {}) {
  const operations = {
    get: async (request: { principal: unknown }) => {
      reached++;
      return { statusCode: 200, body: JSON.stringify(request.principal) };
    },
  };
  const dependencies = () => {
    built++;
    return testDependencies({ accounts, apiKeys, rateLimits: new MemoryRateLimiter(), now: () => NOW, ...overrides });
  };
  return createApiHandler(operations as never, dependencies);
}

async function call(authorization?: string, overrides?: Partial<Ports>) {
  const result = (await handlerOver(overrides)(event(authorization), context)) as { statusCode: number; body: string; headers: Record<string, string> };
  return { status: result.statusCode, body: JSON.parse(result.body), headers: result.headers };
}

async function newKey(scopes: ('read' | 'write' | 'publish')[] = ['read']) {
  const account = await accounts.create('a', 'pro');
  return { accountId: account.id, ...(await apiKeys.create(account.id, scopes)) };
}

beforeEach(() => {
  accounts = new MemoryAccountStore();
  apiKeys = new MemoryApiKeyStore(accounts);
  reached = 0;
  built = 0;
});

describe('authentication (unit)', () => {
  test('no Authorization header is 401 without building the dependencies', async () => {
    const res = await call();
    expect(res).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(res.headers['x-request-id']).toBe('req-1');
    expect({ built, reached }).toEqual({ built: 0, reached: 0 });
  });

  test.each([
    ['no scheme', 'rsk_abc'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer token of the wrong shape', 'Bearer abc'],
    ['an empty bearer', 'Bearer '],
  ])('a malformed header (%s) is 401 without a lookup', async (_label, header) => {
    expect(await call(header)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(built).toBe(0);
  });

  test('a well-formed key that was never issued is 401', async () => {
    expect(await call(`Bearer ${generateKeyMaterial().raw}`)).toMatchObject({ status: 401, body: { error: 'Unknown API key' } });
  });

  test('a good key reaches the operation as its account and scopes, and its use is recorded', async () => {
    const key = await newKey(['read', 'write']);
    const res = await call(`Bearer ${key.key}`);
    expect(res).toMatchObject({ status: 200, body: { accountId: key.accountId, scopes: ['read', 'write'], credential: { kind: 'api_key', keyId: key.id } } });
    expect(apiKeys.uses).toEqual([{ keyId: key.id, at: NOW.toISOString() }]);
  });

  test("a test key reaches the operation as its account's test scope, a live key as the account itself", async () => {
    const account = await accounts.create('a', 'pro');
    const [testKey, liveKey] = [await apiKeys.create(account.id, ['read'], NOW, 'ci', 'test'), await apiKeys.create(account.id, ['read'], NOW, 'prod', 'live')];
    expect((await call(`Bearer ${testKey.key}`)).body).toMatchObject({ accountId: scopeOf(account.id, 'test') });
    expect((await call(`Bearer ${liveKey.key}`)).body).toMatchObject({ accountId: account.id });
    expect(scopeOf(account.id, 'test')).not.toBe(account.id);
  });

  test('a test key of the right shape that was never issued is 401, as a live one is', async () => {
    expect(await call(`Bearer ${generateKeyMaterial('test').raw}`)).toMatchObject({ status: 401, body: { error: 'Unknown API key' } });
  });

  test('a key is looked up by the hash of its raw value', async () => {
    const key = await newKey();
    const lookups: string[] = [];
    const spying = Object.assign(Object.create(apiKeys) as ApiKeyStore, {
      findByHash: (hash: string) => (lookups.push(hash), apiKeys.findByHash(hash)),
    });
    await call(`Bearer ${key.key}`, { apiKeys: spying });
    expect(lookups).toEqual([hashKey(key.key)]);
  });

  test('a revoked key is 401 on the very next request', async () => {
    const key = await newKey();
    expect((await call(`Bearer ${key.key}`)).status).toBe(200);
    await apiKeys.revoke(key.id);
    expect(await call(`Bearer ${key.key}`)).toMatchObject({ status: 401, body: { error: 'This API key has been revoked' } });
    expect(reached).toBe(1);
  });

  test('a key without the scope a route needs is 403', async () => {
    const key = await newKey(['write']);
    expect(await call(`Bearer ${key.key}`)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });

  test('a failure of the store is a 500 that shows only the request id', async () => {
    const key = await newKey();
    const failing = Object.assign(Object.create(apiKeys) as ApiKeyStore, {
      findByHash: () => Promise.reject(new Error('connection reset by peer at 10.0.0.12')),
    });
    const res = await call(`Bearer ${key.key}`, { apiKeys: failing });
    expect(res).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'internal_error', request_id: 'req-1', doc_url: '/api/v1/docs/errors#internal_error' },
      headers: expect.objectContaining({ 'x-request-id': 'req-1' }),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.12|stack/);
  });

  test('a failed bookkeeping write does not fail the request', async () => {
    const key = await newKey();
    const failing = Object.assign(Object.create(apiKeys) as ApiKeyStore, {
      recordUse: () => Promise.reject(new Error('throttled')),
    });
    expect((await call(`Bearer ${key.key}`, { apiKeys: failing })).status).toBe(200);
  });
});
