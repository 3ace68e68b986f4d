import { rateLimitsOnStoppedClock } from '#test-support/clock';
import { apiClient, expectError, startTestStack, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack({ adjustDependencies: rateLimitsOnStoppedClock });
});
afterAll(() => t?.stop());

describe('the per-account rate limit', () => {
  test('120 requests a minute pass, shared by all keys of the account; the next is 429 with Retry-After', async () => {
    const { accountId, api } = await t.newAccount();
    const second = apiClient(t.stack.apiUrl, (await t.stack.dependencies.apiKeys.create(accountId, ['read'])).key);
    const clients = [api, second];
    // Concurrent requests from two keys: the shared counter must admit exactly 120.
    const responses = await Promise.all(Array.from({ length: 130 }, (_, i) => clients[i % 2]!.get('/usage')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);

    const refused = responses.find((r) => r.status === 429)!;
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe('120');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    const admitted = responses.find((r) => r.status === 200)!;
    expect(admitted.headers.get('ratelimit-limit')).toBe('120');
    expect(Number(admitted.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
  });

  test('one account exhausting its limit does not slow another', async () => {
    const busy = await t.newAccount();
    await Promise.all(Array.from({ length: 121 }, () => busy.api.get('/usage')));
    expect((await busy.api.get('/usage')).status).toBe(429);
    const quiet = await t.newAccount();
    const res = await quiet.api.get('/usage');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('119');
  });

  test('unauthenticated requests are refused before they can count against an account', async () => {
    const { api } = await t.newAccount();
    for (let i = 0; i < 5; i++) await apiClient(t.stack.apiUrl).get('/usage');
    expect((await api.get('/usage')).headers.get('ratelimit-remaining')).toBe('119');
  });
});
