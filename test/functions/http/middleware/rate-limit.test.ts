/** The per-account request limit over an in-memory limiter: headers, the 429, and who shares a budget. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createApiHandler } from '#http/api-handler';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const MINUTE = 60_000;
/** The start of a window, so that nothing of an earlier one weighs. */
const T0 = Math.floor(Date.UTC(2026, 10, 22, 12, 0, 0) / MINUTE) * MINUTE;

function event(key: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /api/v1/usage',
    rawPath: '/api/v1/usage',
    rawQueryString: '',
    headers: { authorization: `Bearer ${key}` },
    requestContext: { requestId: 'req-1', http: { method: 'GET', path: '/api/v1/usage' } } as never,
    isBase64Encoded: false,
  };
}

async function setup(limit: number) {
  const accounts = new MemoryAccountStore();
  const apiKeys = new MemoryApiKeyStore(accounts);
  let now = T0 + 1000;
  const rateLimits = new MemoryRateLimiter(() => now);
  const handler = createApiHandler({ get: async () => ({ statusCode: 200, body: '{}' }) } as never, () =>
    testDependencies({ accounts, apiKeys, rateLimits, apiRequestsPerMinute: limit }),
  );
  const keyOf = async () => (await apiKeys.create((await accounts.create('a', 'pro')).id, ['read'])).key;
  const call = async (key: string) => {
    const result = (await handler(event(key), context)) as { statusCode: number; body: string; headers: Record<string, string> };
    return { status: result.statusCode, body: JSON.parse(result.body), headers: result.headers };
  };
  return { apiKeys, accounts, keyOf, call, later: (ms: number) => (now += ms) };
}

describe('the per-account rate limit (unit)', () => {
  test('answers carry the RateLimit headers; past the limit it is 429 with Retry-After', async () => {
    const { keyOf, call } = await setup(3);
    const key = await keyOf();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(key));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2' });
    expect(answers[3]!.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  test("an account's keys share one budget; another account has its own", async () => {
    const { accounts, apiKeys, keyOf, call } = await setup(2);
    const first = await keyOf();
    const account = (await accounts.get(1))!;
    const second = (await apiKeys.create(account.id, ['read'])).key;
    expect((await call(first)).status).toBe(200);
    expect((await call(second)).status).toBe(200);
    expect((await call(second)).status).toBe(429);
    expect((await call(await keyOf())).status).toBe(200);
  });

  test('a refused request does not count: the budget comes back as the window rolls', async () => {
    const { keyOf, call, later } = await setup(2);
    const key = await keyOf();
    for (let i = 0; i < 2; i++) await call(key);
    for (let i = 0; i < 5; i++) expect((await call(key)).status).toBe(429);
    later(MINUTE + 30_000);
    // Half a minute into the next window the two admitted requests weigh one: one more fits (the
    // seven requests, had the refusals counted, would weigh three and a half).
    expect((await call(key)).status).toBe(200);
  });
});
