/**
 * The retrying fetch on its own, with a fetch double and a recorded sleep: which answers are sent
 * again, after how long, how often, and that every attempt carries the same request.
 */
import { retryingFetch, type FetchLike, type RetryEvent } from '#client/retry';
import { retryAfterSeconds } from '#client/errors';

const URL_ = 'https://api.test/api/v1/usage';

/** Answers from a script, one per call; records what each call received. */
function scripted(...answers: (Response | Error)[]) {
  const seen: { method: string; headers: Headers; body: string }[] = [];
  const fetch: FetchLike = async (request) => {
    seen.push({ method: request.method, headers: request.headers, body: await request.text() });
    const next = answers.shift();
    if (!next) throw new Error('no answer scripted');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, seen };
}

const refused = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: 'slow down', code: status === 429 ? 'rate_limited' : 'upstream_unavailable' }), { status, headers });
const ok = () => new Response('{"data":{}}', { status: 200 });

function withSleeps(options: Parameters<typeof retryingFetch>[1] = {}) {
  const sleeps: number[] = [];
  const events: RetryEvent[] = [];
  return {
    sleeps,
    events,
    wrap: (inner: FetchLike) => retryingFetch(inner, { ...options, onRetry: (e) => events.push(e) }, async (ms) => void sleeps.push(ms)),
  };
}

test('a 429 is sent again after its Retry-After, and the answer after it is returned', async () => {
  const { fetch, seen } = scripted(refused(429, { 'retry-after': '2' }), ok());
  const { wrap, sleeps, events } = withSleeps();
  const response = await wrap(fetch)(new Request(URL_));
  expect(response.status).toBe(200);
  expect(sleeps).toEqual([2000]);
  expect(events.map((e) => [e.attempt, e.status, e.delayMs])).toEqual([[1, 429, 2000]]);
  expect(seen).toHaveLength(2);
});

test('a 429 without Retry-After (a proxy) backs off by doubling', async () => {
  const { fetch } = scripted(refused(429), refused(429), ok());
  const { wrap, sleeps } = withSleeps();
  expect((await wrap(fetch)(new Request(URL_))).status).toBe(200);
  expect(sleeps).toEqual([1000, 2000]);
});

test('after maxAttempts the last refusal goes back to the caller', async () => {
  const { fetch, seen } = scripted(refused(429, { 'retry-after': '1' }), refused(429, { 'retry-after': '1' }), refused(429, { 'retry-after': '1' }));
  const { wrap, sleeps } = withSleeps({ maxAttempts: 3 });
  const response = await wrap(fetch)(new Request(URL_));
  expect(response.status).toBe(429);
  expect(await response.json()).toMatchObject({ code: 'rate_limited' });
  expect(seen).toHaveLength(3);
  expect(sleeps).toEqual([1000, 1000]);
});

test('a Retry-After longer than maxDelayMs is not waited: the caller decides', async () => {
  const { fetch, seen } = scripted(refused(429, { 'retry-after': '61' }));
  const { wrap, sleeps } = withSleeps();
  expect((await wrap(fetch)(new Request(URL_))).status).toBe(429);
  expect(seen).toHaveLength(1);
  expect(sleeps).toEqual([]);
});

test('a 503 is retried only when it says when (Retry-After); other statuses never', async () => {
  const withHeader = scripted(refused(503, { 'retry-after': '5' }), ok());
  const a = withSleeps();
  expect((await a.wrap(withHeader.fetch)(new Request(URL_))).status).toBe(200);
  expect(a.sleeps).toEqual([5000]);

  for (const status of [503, 500, 502, 409]) {
    const once = scripted(refused(status));
    const b = withSleeps();
    expect((await b.wrap(once.fetch)(new Request(URL_))).status).toBe(status);
    expect(once.seen).toHaveLength(1);
  }
});

test('every attempt sends the same body and headers, multipart included', async () => {
  const form = new FormData();
  form.append('product_id', '7');
  form.append('reference_video', new Blob([new Uint8Array([1, 2, 3, 4])]), 'clip.mp4');
  const { fetch, seen } = scripted(refused(429, { 'retry-after': '0' }), refused(429, { 'retry-after': '0' }), ok());
  const { wrap } = withSleeps();
  const request = new Request(URL_, { method: 'POST', body: form, headers: { 'idempotency-key': 'k-1' } });
  expect((await wrap(fetch)(request)).status).toBe(200);
  expect(seen).toHaveLength(3);
  expect(new Set(seen.map((s) => s.body)).size).toBe(1);
  expect(seen[0]!.body).toContain('clip.mp4');
  expect(seen.map((s) => s.headers.get('idempotency-key'))).toEqual(['k-1', 'k-1', 'k-1']);
  expect(new Set(seen.map((s) => s.headers.get('content-type'))).size).toBe(1);
});

describe('network failures', () => {
  const reset = () => new TypeError('fetch failed');

  test('a GET is sent again', async () => {
    const { fetch, seen } = scripted(reset(), ok());
    const { wrap, sleeps } = withSleeps();
    expect((await wrap(fetch)(new Request(URL_))).status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([250]);
  });

  test('a POST with an Idempotency-Key is sent again; one without is not (it may have been done)', async () => {
    const keyed = scripted(reset(), ok());
    expect((await withSleeps().wrap(keyed.fetch)(new Request(URL_, { method: 'POST', body: '{}', headers: { 'idempotency-key': 'k' } }))).status).toBe(200);

    const bare = scripted(reset(), ok());
    await expect(withSleeps().wrap(bare.fetch)(new Request(URL_, { method: 'POST', body: '{}' }))).rejects.toThrow('fetch failed');
    expect(bare.seen).toHaveLength(1);
  });

  test('an aborted request is not retried', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const { fetch, seen } = scripted(reset(), ok());
    await expect(withSleeps().wrap(fetch)(new Request(URL_, { signal: controller.signal }))).rejects.toThrow('fetch failed');
    expect(seen).toHaveLength(1);
  });
});

test('Retry-After reads delta-seconds and HTTP dates', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryAfterSeconds('7', now)).toBe(7);
  expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
  expect(retryAfterSeconds('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  expect(retryAfterSeconds('soon', now)).toBeNull();
  expect(retryAfterSeconds(null, now)).toBeNull();
});
