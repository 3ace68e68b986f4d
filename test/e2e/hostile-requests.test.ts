/**
 * Black-box: every route of the route table, sent broken bodies, headers, paths and queries
 * (test/support/hostile-requests.ts). Each answer is a 4xx in the envelope with a request id, never a
 * 5xx, never a bare status line, and the server is still there afterwards.
 */
import { ROUTES } from '#functions/routes';
import { startTestStack, type TestStack } from '#test-support/local-stack';
import { hostileRequests, problemWith, sendAll, tally } from '#test-support/hostile-requests';

let t: TestStack;
beforeAll(async () => {
  // With the contract's 120 a minute, most of these would stop at a 429.
  t = await startTestStack({ rateLimitPerMinute: 100_000 });
});
afterAll(() => t?.stop());

test('every broken request to every route is a 4xx in the envelope, and the server still answers', async () => {
  const { key, api } = await t.newAccount();
  const requests = hostileRequests(ROUTES, key);
  expect(requests.length).toBeGreaterThan(1000);
  const port = Number(new URL(t.stack.baseUrl).port);

  const results = await sendAll(port, requests, 8);

  const refusedWrongly = results.filter(({ outcome }) => problemWith(outcome)).map(({ request, outcome }) => `${request.name}: ${problemWith(outcome)}`);
  expect(refusedWrongly).toEqual([]);
  const { serverErrors, bodiless, byStatus } = tally(results);
  expect({ serverErrors, bodiless }).toEqual({ serverErrors: 0, bodiless: 0 });
  // Most requests got past authentication: the handlers themselves were tried.
  expect((byStatus['400'] ?? 0) + (byStatus['404'] ?? 0) + (byStatus['415'] ?? 0) + (byStatus['422'] ?? 0)).toBeGreaterThan(requests.length / 2);
  expect(byStatus['429']).toBeUndefined();

  expect((await api.get('/usage')).status).toBe(200);
  expect((await api.get('/products')).body.meta.total).toBe(0);
}, 120_000);
