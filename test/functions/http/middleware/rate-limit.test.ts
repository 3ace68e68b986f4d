/** The per-account request limit over an in-memory limiter: headers, the 429, and who shares a budget. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createApiHandler } from '#http/api-handler';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
const { floor } = Math;

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const MINUTE = 60_000;
/** The start of a window, so that nothing of an earlier one weighs. */
const T0 = floor(Date.UTC(2026, 10, 22, 12, 0, 0) / MINUTE) * MINUTE;

function event(key: string, route = 'GET /api/v1/usage', query: Record<string, string> = {}): APIGatewayProxyEventV2 {
  const [method, path] = route.split(' ') as [string, string];
  return {
    version: '2.0',
    routeKey: route,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    headers: { authorization: `Bearer ${key}` },
    requestContext: { requestId: 'req-1', http: { method, path } } as never,
    isBase64Encoded: false,
  };
}

async function setup(limit: number) {
  const accounts = new MemoryAccountStore();
  const apiKeys = new MemoryApiKeyStore(accounts);
  let now = T0 + 1000;
  const rateLimits = new MemoryRateLimiter(() => now);
  const answer = async () => ({ statusCode: 200, body: '{}' });
  const handler = createApiHandler({ get: answer, create: answer } as never, () =>
    testDependencies({ accounts, apiKeys, rateLimits, apiRequestsPerMinute: limit }),
  );
  const keyOf = async () => (await apiKeys.create((await accounts.create('a', 'pro')).id, ['read', 'write'])).key;
  const call = async (key: string, route?: string, query?: Record<string, string>) => {
    const result = (await handler(event(key, route, query), context)) as { statusCode: number; body: string; headers: Record<string, string> };
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

  test('a dry run where the route takes one reads the budget without spending it, and is refused with it', async () => {
    const { keyOf, call } = await setup(2);
    const key = await keyOf();
    const dryRun = () => call(key, 'POST /api/v1/videos', { dry_run: 'true' });
    for (let i = 0; i < 5; i++) expect(await dryRun()).toMatchObject({ status: 200, headers: { 'ratelimit-limit': '2', 'ratelimit-remaining': '2' } });
    // Anything but true counts (the operation answers its 400), and so does a route without dry runs.
    expect((await call(key, 'POST /api/v1/videos', { dry_run: 'yes' })).headers['ratelimit-remaining']).toBe('1');
    expect((await call(key, 'GET /api/v1/usage', { dry_run: 'true' })).headers['ratelimit-remaining']).toBe('0');
    const refused = await dryRun();
    expect(refused).toMatchObject({ status: 429, body: { code: 'rate_limited' }, headers: { 'ratelimit-remaining': '0' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
