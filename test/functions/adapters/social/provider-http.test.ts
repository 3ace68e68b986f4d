/**
 * The JSON client both scheduling-provider adapters use, against a loopback HTTP server: what it
 * sends, what it retries (and how long it would wait), how every failure maps to a ProviderError
 * kind, and that the API key never shows up in an error. Plus the analytics helpers.
 */
import * as z from 'zod/mini';
import {
  AnalyticsTally,
  ProviderHttp,
  analyticsWindow,
  mapLimited,
  readMetrics,
  type ProviderHttpOptions,
} from '#adapters/social/provider-http';
import type { ProviderError } from '#ports/social-provider';
import { sequence, startLoopbackServer, useLoopbackServer, type Reply } from '#test-support/loopback-server';
import { providerFailure } from '#test-support/social-provider';
const { max } = Math;

const server = useLoopbackServer({ notFound: () => ({ status: 404, body: { message: 'no route' } }) });

const KEY = 'sk_live_TOPSECRET_1234567890';
const PROFILE = 'PROFILE-KEY-SECRET-42';
const Ok = z.looseObject({ ok: z.boolean() });

let sleeps: number[];

function client(overrides: Partial<ProviderHttpOptions> = {}): ProviderHttp {
  return new ProviderHttp({
    provider: 'provider_a',
    baseUrl: `${server.url}/api/`,
    apiKey: KEY,
    headers: { 'Profile-Key': PROFILE },
    attemptTimeoutMs: 1_000,
    deadlineMs: 5_000,
    maxAttempts: 3,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await providerFailure(promise, { secrets: [KEY, PROFILE] });
  expect(String(error.stack)).not.toContain(KEY);
  return error;
}

beforeEach(() => {
  sleeps = [];
});

describe('what is sent', () => {
  it('a GET carries the bearer key, the extra headers, Accept JSON and repeated array query keys', async () => {
    server.route(() => ({ body: { ok: true } }));
    await expect(client().request({ method: 'GET', path: '/user', query: { platform: ['x', 'tiktok'], limit: 5, skip: undefined }, describe: 'list' }, Ok)).resolves.toEqual({ ok: true });
    const [request] = server.seen;
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe('/api/user');
    expect(request!.query.getAll('platform')).toEqual(['x', 'tiktok']);
    expect(request!.query.get('limit')).toBe('5');
    expect(request!.query.has('skip')).toBe(false);
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['profile-key']).toBe(PROFILE);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.headers['content-type']).toBeUndefined();
  });

  it('a body is sent as JSON with its content type', async () => {
    server.route(() => ({ body: { ok: true } }));
    await client().request({ method: 'POST', path: 'post', body: { post: 'hi', platforms: ['x'] }, describe: 'create' }, Ok);
    expect(server.seen[0]!.path).toBe('/api/post');
    expect(server.seen[0]!.headers['content-type']).toBe('application/json');
    expect(server.seen[0]!.body).toEqual({ post: 'hi', platforms: ['x'] });
  });
});

describe('retries', () => {
  it('429 with Retry-After is waited for (at least the header) and then succeeds', async () => {
    server.route(sequence({ status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow down' } }, { body: { ok: true } }));
    await expect(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok)).resolves.toEqual({ ok: true });
    expect(server.seen).toHaveLength(2);
    expect(sleeps).toEqual([2_000]);
  });

  it('429 is retried even for a POST that must not be repeated (nothing was processed)', async () => {
    server.route(sequence({ status: 429 }, { body: { ok: true } }));
    await client().request({ method: 'POST', path: '/x', body: {}, describe: 'create', repeatable: false }, Ok);
    expect(server.seen).toHaveLength(2);
  });

  it('a Retry-After beyond the cap is not waited for: rate_limited with retryAfterS', async () => {
    server.route(() => ({ status: 429, headers: { 'retry-after': '120' }, body: { message: 'slow down' } }));
    const error = await failure(client({ maxRetryAfterMs: 30_000 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterS: 120, provider: 'provider_a' });
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('still 429 after every attempt is rate_limited', async () => {
    server.route(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterS: 1 });
    expect(server.seen).toHaveLength(3);
  });

  it('5xx is retried with exponential backoff, then gives up as unavailable', async () => {
    server.route(() => ({ status: 503, body: { message: 'down for maintenance' } }));
    const error = await failure(client({ maxAttempts: 4, baseDelayMs: 100 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(server.seen).toHaveLength(4);
    // random() = 0: half of 100, 200, 400.
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('jitter spreads the delay within [ceiling/2, ceiling)', async () => {
    server.route(sequence({ status: 500 }, { body: { ok: true } }));
    await client({ baseDelayMs: 1_000, random: () => 0.5 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok);
    expect(sleeps).toEqual([750]);
  });

  it('5xx then success on a GET', async () => {
    server.route(sequence({ status: 502 }, { status: 500 }, { body: { ok: true } }));
    await expect(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok)).resolves.toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
  });

  it('a POST that is not repeatable gets one attempt on a 5xx', async () => {
    server.route(() => ({ status: 500 }));
    const error = await failure(client().request({ method: 'POST', path: '/x', body: {}, describe: 'create' }, Ok));
    expect(error.kind).toBe('unavailable');
    expect(server.seen).toHaveLength(1);
  });

  it('a POST marked repeatable (idempotency key) is retried on a 5xx', async () => {
    server.route(sequence({ status: 500 }, { body: { ok: true } }));
    await client().request({ method: 'POST', path: '/x', body: {}, describe: 'create', repeatable: true }, Ok);
    expect(server.seen).toHaveLength(2);
  });

  it('a DELETE is retried on a 5xx', async () => {
    server.route(sequence({ status: 500 }, { body: { ok: true } }));
    await client().request({ method: 'DELETE', path: '/x', describe: 'delete' }, Ok);
    expect(server.seen).toHaveLength(2);
  });

  it('a refused connection is retried, then unavailable', async () => {
    const closed = await startLoopbackServer();
    const url = closed.url;
    await closed.close();
    const error = await failure(client({ baseUrl: url }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/3 attempts/);
    expect(sleeps).toHaveLength(2);
  });
});

describe('timeouts', () => {
  it('a server slower than the per-attempt timeout is timeout, after the attempts', async () => {
    // The answer would come within the overall deadline: a failure means each attempt was cut off.
    server.route(() => ({ delayMs: 3_000, body: { ok: true } }));
    const error = await failure(client({ attemptTimeoutMs: 250, maxAttempts: 2 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('timeout');
    expect(server.seen).toHaveLength(2);
  });

  it('a slow POST that is not repeatable is not sent again', async () => {
    server.route(() => ({ delayMs: 3_000, body: { ok: true } }));
    const error = await failure(client({ attemptTimeoutMs: 250 }).request({ method: 'POST', path: '/x', body: {}, describe: 'create' }, Ok));
    expect(error.kind).toBe('timeout');
    expect(server.seen).toHaveLength(1);
  });

  it('the overall deadline bounds the call, even under a long per-attempt timeout', async () => {
    // The answer would come within the attempt's timeout: a failure means the deadline cut it off.
    server.route(() => ({ delayMs: 3_000, body: { ok: true } }));
    const error = await failure(client({ attemptTimeoutMs: 10_000, deadlineMs: 250 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('timeout');
    expect(server.seen).toHaveLength(1);
  });

  it('a wait that would end past the deadline is not started: the last answer is reported', async () => {
    server.route(() => ({ status: 503 }));
    const error = await failure(client({ deadlineMs: 1_000, baseDelayMs: 5_000 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('unavailable');
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('the caller aborting stops the call at once', async () => {
    const controller = new AbortController();
    // Aborted once the server has the request, so nothing of this test can arrive during the next one.
    server.route(() => {
      setTimeout(() => controller.abort(), 20);
      return { delayMs: 3_000, body: { ok: true } };
    });
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read', signal: controller.signal }, Ok));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/cancelled/);
    expect(server.seen).toHaveLength(1);
  });
});

describe('error mapping', () => {
  const cases: [number, string][] = [
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not_found'],
    [400, 'rejected'],
    [422, 'rejected'],
    [409, 'conflict'],
    [413, 'rejected'],
  ];
  it.each(cases)('HTTP %i is %s, with the provider\'s own words', async (status, kind) => {
    server.route(() => ({ status, body: { status: 'error', message: `the provider says ${status}` } }));
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error).toMatchObject({ kind, status, provider: 'provider_a' });
    expect(error.message).toContain(`the provider says ${status}`);
    expect(server.seen).toHaveLength(1);
  });

  it('a 400 the request marks as a state refusal is conflict', async () => {
    server.route(() => ({ status: 400, body: { statusCode: 400, message: 'Can only delete draft or scheduled posts' } }));
    const error = await failure(
      client().request({ method: 'DELETE', path: '/x', describe: 'delete', conflict: (a) => /only delete/.test(a.text) }, Ok),
    );
    expect(error.kind).toBe('conflict');
    expect(error.message).toContain('Can only delete draft or scheduled posts');
  });

  it('errors[] entries are quoted', async () => {
    server.route(() => ({ status: 400, body: { message: 'Invalid Request', errors: [{ message: 'caption too long' }, 'media missing'] } }));
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.message).toContain('Invalid Request; caption too long; media missing');
  });

  it('malformed JSON on a 200 is bad_response', async () => {
    server.route(() => ({ raw: '{"ok": tru' }));
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/not JSON/);
  });

  it('an empty 200 where a body is expected is bad_response', async () => {
    server.route(() => ({ raw: '' }));
    expect((await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok))).kind).toBe('bad_response');
  });

  it('JSON of the wrong shape is bad_response naming the field', async () => {
    server.route(() => ({ body: { ok: 'yes' } }));
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/ok: /);
  });

  it('the API key and Profile-Key are redacted even when the provider echoes them', async () => {
    server.route(() => ({ status: 401, body: { message: `API Key ${KEY} not valid for profile ${PROFILE}` } }));
    const error = await failure(client().request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('[redacted]');
  });

  it('no failure of any kind carries the key', async () => {
    const replies: Reply[] = [
      { status: 401, body: { message: KEY } },
      { status: 400, body: { errors: [{ message: `bad ${KEY}` }] } },
      { status: 500, body: { message: KEY } },
      { status: 429, headers: { 'retry-after': '999' }, body: { message: KEY } },
      { raw: `not json ${KEY}` },
      { body: { ok: KEY } },
    ];
    for (const reply of replies) {
      server.route(() => reply);
      await failure(client({ maxAttempts: 1 }).request({ method: 'GET', path: '/x', describe: 'read' }, Ok));
    }
  });

  it('send() returns a non-2xx answer for the caller to inspect', async () => {
    server.route(() => ({ status: 400, body: { status: 'error', errors: [] } }));
    const answer = await client().send({ method: 'POST', path: '/x', body: {}, describe: 'create' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ status: 'error', errors: [] });
  });
});

describe('analytics helpers', () => {
  it('the window is whole UTC days: 1 = today, 7 = today and the six before', () => {
    const now = new Date('2025-06-15T12:34:56Z');
    expect(analyticsWindow({ days: 1, now }).from.toISOString()).toBe('2025-06-15T00:00:00.000Z');
    expect(analyticsWindow({ days: 7, now }).from.toISOString()).toBe('2025-06-09T00:00:00.000Z');
    expect(analyticsWindow({ days: 7, now }).to).toBe(now);
  });

  it('metrics are read by the first name present, never summed across aliases', () => {
    expect(readMetrics({ view_count: 10, like_count: 2, comment_count: 3, share_count: 4 })).toEqual({ views: 10, likes: 2, comments: 3, shares: 4 });
    expect(readMetrics({ views: 5, viewCount: 99, likes: 1, comments: 1, shares: 1 })).toEqual({ views: 5, likes: 1, comments: 1, shares: 1 });
    expect(readMetrics({ videoViews: 7, likeCount: 3, commentsCount: 2, retweetCount: 1 })).toEqual({ views: 7, likes: 3, comments: 2, shares: 1 });
    expect(readMetrics({ reactions: { like: 2, love: 1 } }).likes).toBe(3);
    expect(readMetrics({ reactions: { like: 2, total: 9 } }).likes).toBe(9);
    expect(readMetrics({ public_metrics: { like_count: 4, retweet_count: 2, reply_count: 1 } })).toEqual({ views: 0, likes: 4, comments: 1, shares: 2 });
    expect(readMetrics(null)).toEqual({ views: 0, likes: 0, comments: 0, shares: 0 });
    expect(readMetrics({ views: -3, likes: '12' })).toEqual({ views: 0, likes: 12, comments: 0, shares: 0 });
  });

  it('the tally sums per UTC day, counts each post once and lists days oldest first', () => {
    const tally = new AnalyticsTally();
    tally.add(new Date('2025-06-15T01:00:00Z'), { views: 1, likes: 1, comments: 0, shares: 0 }, 'p1');
    tally.add(new Date('2025-06-14T23:59:59Z'), { views: 10, likes: 0, comments: 2, shares: 1 }, 'p2');
    tally.add(new Date('2025-06-15T05:00:00Z'), { views: 5, likes: 0, comments: 0, shares: 0 }, 'p1', { platform: 'tiktok' });
    expect(tally.result()).toEqual({
      totals: { views: 16, likes: 1, comments: 2, shares: 1, posts: 2 },
      daily: [
        { date: '2025-06-14', views: 10, likes: 0, comments: 2, shares: 1, posts: 1 },
        { date: '2025-06-15', views: 6, likes: 1, comments: 0, shares: 0, posts: 1 },
      ],
      // Each add as it came, newest day first, with where the provider said it went out.
      posts: [
        { post_id: 'p1', channel_id: null, platform: null, date: '2025-06-15', views: 1, likes: 1, comments: 0, shares: 0 },
        { post_id: 'p1', channel_id: null, platform: 'tiktok', date: '2025-06-15', views: 5, likes: 0, comments: 0, shares: 0 },
        { post_id: 'p2', channel_id: null, platform: null, date: '2025-06-14', views: 10, likes: 0, comments: 2, shares: 1 },
      ],
    });
  });

  it('mapLimited keeps the order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      peak = max(peak, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });

  it('mapLimited rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    let secondStarted!: () => void;
    let finishSecond!: () => void;
    const second = { started: new Promise<void>((r) => (secondStarted = r)), finished: new Promise<void>((r) => (finishSecond = r)) };
    const run = mapLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 1) {
        // Fails while the second item runs.
        await second.started;
        throw new Error('account 1 failed');
      }
      if (n === 2) {
        secondStarted();
        await second.finished;
      }
      return n;
    });
    await expect(run).rejects.toThrow('account 1 failed');
    finishSecond();
    // A turn of the event loop: the second item's slot is free, and anything queued would have started.
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([1, 2]);
  });
});
