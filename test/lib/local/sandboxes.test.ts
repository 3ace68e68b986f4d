/**
 * The social-provider sandboxes over real HTTP on loopback: each one's contract (auth, listing,
 * create now / scheduled / draft, status progression on the controllable clock, per-channel results,
 * partial failure, delete rules, analytics growth) and the fault-injection controls; then the local
 * wiring (environment variables, SOCIAL_SANDBOXES=off, the URLs file for the CLI, the stack itself).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readSandboxUrls,
  startLocalSandboxes,
  startProviderASandbox,
  startProviderBSandbox,
  startSandboxes,
  runningSandboxBaseUrls,
  type ProviderASandbox,
  type ProviderBSandbox,
} from '#local/sandboxes/index';
import { engagement, saveWhenDirty, stateFile } from '#local/sandboxes/sandbox-kit';
import { startTestStack } from '#test-support/local-stack';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function call(base: string, method: string, path: string, init: { key?: string | null; json?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.raw !== undefined) {
    headers['content-type'] = 'application/json';
    body = init.raw;
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const VIDEO = 'https://cdn.example.com/videos/reaction.mp4';

type AccountIds = Record<'tiktok' | 'instagram' | 'youtube' | 'facebook' | 'x', string>;
const accountIds = (sandbox: ProviderBSandbox, key: string) => Object.fromEntries(sandbox.control.accounts(key).map((a) => [a.platform, a.id])) as AccountIds;
const MINUTE = 60_000;
const inOneHour = (now: Date) => new Date(now.getTime() + 60 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('provider_a sandbox (Ayrshare contract)', () => {
  let a: ProviderASandbox;
  const KEY = 'sandbox_a_tests';
  const api = (method: string, path: string, init: Parameters<typeof call>[3] = {}) => call(a.url, method, path, { key: KEY, ...init });
  const create = (body: Record<string, unknown>, key = KEY) => call(a.url, 'POST', '/post', { key, json: { post: 'Watch this', mediaUrls: [VIDEO], ...body } });

  beforeAll(async () => {
    a = await startProviderASandbox({ publishDelayMs: 60_000 });
  });
  afterAll(() => a.stop());
  afterEach(() => a.control.reset());

  test('listens on loopback under /api, and refuses a missing or foreign key with the error envelope', async () => {
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    for (const key of [null, 'live_key_123', 'sandbox_a_']) {
      const res = await call(a.url, 'GET', '/user', { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', code: expect.any(Number), message: expect.any(String) });
    }
    expect((await call(a.url, 'GET', '/user', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  test('GET /user lists the default linked networks, the same for a key on every start, isolated per key and Profile-Key', async () => {
    const res = await api('GET', '/user');
    expect(res.status).toBe(200);
    expect(res.body.activeSocialAccounts).toEqual(['tiktok', 'instagram', 'youtube', 'facebook']);
    expect(res.body.displayNames).toHaveLength(4);
    for (const entry of res.body.displayNames) {
      expect(entry).toEqual({
        platform: expect.any(String),
        id: expect.any(String),
        displayName: expect.any(String),
        username: `tests_${entry.platform}`,
        profileUrl: expect.stringMatching(/^https:\/\//),
        userImage: expect.any(String),
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      });
    }

    const other = await startProviderASandbox();
    try {
      expect((await call(other.url, 'GET', '/user', { key: KEY })).body).toEqual(res.body);
    } finally {
      await other.stop();
    }

    a.control.linkPlatforms(KEY, ['tiktok'], 'client-7');
    const profile = await api('GET', '/user', { headers: { 'Profile-Key': 'client-7' } });
    expect(profile.body.activeSocialAccounts).toEqual(['tiktok']);
    expect(profile.body.displayNames[0].username).not.toBe('tests_tiktok');
    expect((await api('GET', '/user')).body.activeSocialAccounts).toHaveLength(4);

    a.control.linkPlatforms('sandbox_a_nothing', []);
    const empty = await call(a.url, 'GET', '/user', { key: 'sandbox_a_nothing' });
    expect(empty.body.activeSocialAccounts).toBeUndefined();
    expect(empty.body.displayNames).toEqual([]);
  });

  test('POST /post validates the body', async () => {
    const cases: Array<[Record<string, unknown>, number, number]> = [
      [{ post: 42, platforms: ['facebook'] }, 400, 101],
      [{ platforms: [] }, 400, 101],
      [{ platforms: ['myspace'] }, 400, 101],
      [{ platforms: ['twitter'] }, 400, 156],
      [{ platforms: ['facebook'], mediaUrls: ['http://cdn.example.com/a.mp4'] }, 400, 101],
      [{ platforms: ['facebook'], mediaUrls: ['ftp://127.0.0.1/a.mp4'] }, 400, 101],
      [{ platforms: ['facebook'], scheduleDate: '2020-01-01T00:00:00Z' }, 400, 135],
      [{ platforms: ['facebook'], scheduleDate: 'tomorrow' }, 400, 101],
      [{ platforms: ['youtube'] }, 400, 101],
      [{ platforms: ['tiktok'], mediaUrls: [] }, 400, 101],
      [{ platforms: ['tiktok'], post: 'x'.repeat(2201) }, 400, 157],
    ];
    for (const [body, status, code] of cases) {
      const res = await create(body);
      expect({ body, status: res.status, code: res.body.code, top: res.body.status }).toEqual({ body, status, code, top: 'error' });
    }
    const notLinked = await create({ platforms: ['twitter', 'facebook'] });
    expect(notLinked.body.errors).toEqual([expect.objectContaining({ platform: 'twitter', code: 156 })]);
    expect((await api('POST', '/post', { raw: '{"post": ' })).status).toBe(400);
    // Loopback http (the local stack's presigned s3rver URLs) is allowed.
    expect((await create({ platforms: ['facebook'], mediaUrls: ['http://127.0.0.1:9/v.mp4'] })).status).toBe(200);
    expect((await create({ platforms: ['youtube'], youTubeOptions: { title: 'A title' } })).status).toBe(200);
  });

  test('an immediate post is answered with its outcome per network; a TikTok copy is id "pending" until processed', async () => {
    const res = await create({ platforms: ['tiktok', 'facebook', 'youtube'], youTubeOptions: { title: 'Reaction' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ status: 'success', id: expect.stringMatching(/^[A-Za-z0-9]{20}$/), errors: [], type: 'now' }));
    expect(res.body.postIds).toEqual([
      { platform: 'tiktok', status: 'success', id: 'pending' },
      { platform: 'facebook', status: 'success', id: expect.stringMatching(/^\d+_\d+$/), postUrl: expect.stringMatching(/^https:\/\/www\.facebook\.com\//) },
      { platform: 'youtube', status: 'success', id: expect.stringMatching(/^[A-Za-z0-9]{11}$/), postUrl: expect.stringMatching(/^https:\/\/youtube\.com\/shorts\//) },
    ]);
    const id = res.body.id;

    const processing = await api('GET', `/post/${id}`);
    expect(processing.body).toEqual(
      expect.objectContaining({ id, status: 'success', post: 'Watch this', platforms: ['tiktok', 'facebook', 'youtube'], mediaUrls: [VIDEO], errors: [], scheduleDate: null, type: 'now' }),
    );
    expect(processing.body.postIds[0]).toEqual({ platform: 'tiktok', status: 'success', id: 'pending' });

    a.control.advance(60_000);
    const done = await api('GET', `/post/${id}`);
    expect(done.body.status).toBe('success');
    expect(done.body.postIds[0]).toEqual({
      platform: 'tiktok',
      status: 'success',
      id: expect.stringMatching(/^\d{19}$/),
      postUrl: expect.stringMatching(/^https:\/\/www\.tiktok\.com\/@tests_tiktok\/video\/\d{19}$/),
    });
    expect(done.body.postIds.slice(1)).toEqual(processing.body.postIds.slice(1));
    expect((await api('GET', `/history/${id}`)).body).toEqual(done.body);
    expect((await api('GET', '/post/nope')).status).toBe(404);
    expect((await call(a.url, 'GET', `/post/${id}`, { key: 'sandbox_a_someone_else' })).status).toBe(404);
  });

  test('a TikTok copy that fails while processing moves to errors[] and the post to "error"', async () => {
    const res = await create({ platforms: ['tiktok', 'facebook'] });
    a.control.failPlatform('tiktok', { code: 110, message: 'TikTok rejected the video.' });
    a.control.advance(60_000);
    const done = await api('GET', `/post/${res.body.id}`);
    expect(done.body.status).toBe('error');
    expect(done.body.postIds).toEqual([expect.objectContaining({ platform: 'facebook', status: 'success' })]);
    expect(done.body.errors).toEqual([{ action: 'post', status: 'error', code: 110, message: 'TikTok rejected the video.', platform: 'tiktok' }]);
  });

  test('PUT /post/retry tries a failed post\'s failed networks again', async () => {
    a.control.failPlatform('instagram');
    const res = await create({ platforms: ['instagram', 'facebook'] });
    expect(res.status).toBe(400);
    expect((await api('PUT', '/post/retry', { json: { id: res.body.id } })).body.status).toBe('error');
    a.control.restorePlatform();
    const retried = await api('PUT', '/post/retry', { json: { id: res.body.id } });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(expect.objectContaining({ status: 'success', id: res.body.id, errors: [] }));
    expect(retried.body.postIds.map((c: { platform: string }) => c.platform).sort()).toEqual(['facebook', 'instagram']);
    expect((await api('PUT', '/post/retry', { json: { id: res.body.id } })).status).toBe(400);
    expect((await api('PUT', '/post/retry', { json: { id: 'nope' } })).status).toBe(404);
    expect((await api('PUT', '/post/retry', { json: {} })).status).toBe(400);
  });

  test('X needs the owner\'s X app headers: without them the X copy fails (code 170), with them it goes out', async () => {
    const X_KEY = 'sandbox_a_with_x';
    a.control.linkPlatforms(X_KEY, ['twitter', 'facebook']);
    const bare = await create({ platforms: ['twitter', 'facebook'] }, X_KEY);
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([expect.objectContaining({ platform: 'twitter', code: 170, message: expect.stringContaining('X-Twitter-OAuth1-Api-Key') })]);
    expect(bare.body.postIds).toEqual([expect.objectContaining({ platform: 'facebook', status: 'success' })]);
    expect((await call(a.url, 'GET', '/history/twitter', { key: X_KEY })).status).toBe(400);

    const xApp = { 'X-Twitter-OAuth1-Api-Key': 'x-consumer-key', 'X-Twitter-OAuth1-Api-Secret': 'x-consumer-secret' };
    const sent = await call(a.url, 'POST', '/post', { key: X_KEY, headers: xApp, json: { post: 'Hi', platforms: ['twitter'] } });
    expect(sent.status).toBe(200);
    expect(sent.body.postIds).toEqual([expect.objectContaining({ platform: 'twitter', status: 'success', postUrl: expect.stringContaining('x.com') })]);
    const history = await call(a.url, 'GET', '/history/twitter', { key: X_KEY, headers: xApp });
    expect(history.body).toEqual(expect.objectContaining({ status: 'success', platform: 'twitter', posts: [expect.objectContaining({ id: sent.body.postIds[0].id, ayrshareId: sent.body.id })] }));
    // Removing the X copy needs the headers too.
    const refused = await call(a.url, 'DELETE', '/post', { key: X_KEY, json: { id: sent.body.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ platform: 'twitter', code: 170 })]);
    expect((await call(a.url, 'DELETE', '/post', { key: X_KEY, headers: xApp, json: { id: sent.body.id } })).body.status).toBe('success');
  });

  test('a scheduled post goes out at its scheduleDate on the sandbox clock', async () => {
    const scheduleDate = inOneHour(a.control.now());
    const res = await create({ platforms: ['facebook'], scheduleDate });
    expect(res.body).toEqual(expect.objectContaining({ status: 'scheduled', scheduleDate, type: 'scheduled' }));
    expect((await api('GET', `/post/${res.body.id}`)).body.status).toBe('pending');
    a.control.advance(58 * MINUTE);
    expect((await api('GET', `/post/${res.body.id}`)).body.status).toBe('pending');
    a.control.advance(3 * MINUTE);
    const done = await api('GET', `/post/${res.body.id}`);
    expect(done.body).toEqual(expect.objectContaining({ status: 'success', type: 'scheduled', scheduleDate }));
  });

  test('requiresApproval holds a post as "awaiting approval" until PATCH approved:true', async () => {
    const res = await create({ platforms: ['facebook'], requiresApproval: true });
    expect(res.body).toEqual(expect.objectContaining({ status: 'awaiting approval', requiresApproval: true }));
    const id = res.body.id;
    a.control.advance(24 * 60 * MINUTE);
    expect((await api('GET', `/post/${id}`)).body.status).toBe('awaiting approval');
    expect((await api('PATCH', '/post', { json: { id, approved: false } })).status).toBe(400);
    const approved = await api('PATCH', '/post', { json: { id, approved: true } });
    expect(approved.body).toEqual({ status: 'success', id, approved: true });
    // Approved with no schedule: it goes out at once.
    expect((await api('GET', `/post/${id}`)).body.status).toBe('success');
    expect((await api('PATCH', '/post', { json: { id, approved: true } })).status).toBe(400);
    expect((await api('PATCH', '/post', { json: { id: 'nope', approved: true } })).status).toBe(404);
  });

  test('the same idempotencyKey answers the same post', async () => {
    const first = await create({ platforms: ['facebook'], idempotencyKey: 'our-post-17' });
    const again = await create({ platforms: ['facebook'], idempotencyKey: 'our-post-17' });
    expect(again.body.id).toBe(first.body.id);
    const other = await create({ platforms: ['facebook'], idempotencyKey: 'our-post-17' }, 'sandbox_a_other');
    expect(other.body.id).not.toBe(first.body.id);
  });

  test('a failing platform gives a partial failure: status "error", the others in postIds', async () => {
    a.control.failPlatform('instagram');
    const res = await create({ platforms: ['instagram', 'facebook'] });
    a.control.advance(60_000);
    const done = await api('GET', `/post/${res.body.id}`);
    expect(done.body.status).toBe('error');
    expect(done.body.postIds).toEqual([expect.objectContaining({ platform: 'facebook', status: 'success' })]);
    expect(done.body.errors).toEqual([{ action: 'post', status: 'error', code: 199, message: expect.stringContaining('Instagram'), platform: 'instagram' }]);

    // The flag is read when a post goes out: one published before the flag is unaffected.
    a.control.restorePlatform();
    const ok = await create({ platforms: ['instagram'] });
    a.control.advance(60_000);
    a.control.failPlatform('instagram', { code: 110, message: 'Status is a duplicate.' });
    expect((await api('GET', `/post/${ok.body.id}`)).body.status).toBe('success');
    const dup = await create({ platforms: ['instagram'] });
    a.control.advance(60_000);
    expect((await api('GET', `/post/${dup.body.id}`)).body.errors).toEqual([expect.objectContaining({ code: 110, message: 'Status is a duplicate.' })]);
  });

  test('lastRecords gives the newest N; the day window counts from when a post went out, not when it was made', async () => {
    const scheduled = await create({ platforms: ['facebook'], scheduleDate: new Date(a.control.now().getTime() + 3 * 24 * 60 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z') });
    a.control.advance(4 * 24 * 60 * MINUTE);
    const recent = await create({ platforms: ['facebook'] });
    // Made 4 days ago but published 1 day ago: inside lastDays=2.
    const window = await api('GET', '/history?lastDays=2');
    expect(window.body.history.map((p: { id: string }) => p.id)).toEqual([recent.body.id, scheduled.body.id]);
    const newest = await api('GET', '/history?lastRecords=1&lastDays=0');
    expect(newest.body.history.map((p: { id: string }) => p.id)).toEqual([recent.body.id]);
    expect((await api('GET', '/history?lastRecords=zero')).status).toBe(400);
  });

  describe('DELETE /post (Ayrshare\'s rule)', () => {
    const published = async (platforms: string[]) => {
      const res = await create({ platforms, youTubeOptions: { title: 'Reaction' } });
      expect(res.status).toBe(200);
      a.control.advance(60_000);
      return res.body.id as string;
    };

    test('a pending or awaiting-approval post is cancelled and never goes out', async () => {
      const pending = await create({ platforms: ['tiktok'], scheduleDate: inOneHour(a.control.now()) });
      const held = await create({ platforms: ['instagram'], requiresApproval: true });
      for (const id of [pending.body.id, held.body.id]) {
        const res = await api('DELETE', '/post', { json: { id } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expect.objectContaining({ status: 'success', id }));
      }
      a.control.advance(2 * 60 * MINUTE);
      const after = await api('GET', `/post/${pending.body.id}`);
      expect(after.body.status).toBe('deleted');
      expect(after.body.postIds).toEqual([]);
      const again = await api('DELETE', '/post', { json: { id: pending.body.id } });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(expect.objectContaining({ status: 'error', code: 137 }));
    });

    test('a published post is removed from the networks', async () => {
      const id = await published(['facebook', 'youtube']);
      const res = await api('DELETE', '/post', { json: { id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          status: 'success',
          id,
          facebook: { action: 'delete', status: 'success', id: expect.any(String) },
          youtube: { action: 'delete', status: 'success', id: expect.any(String) },
        }),
      );
      const after = await api('GET', `/post/${id}`);
      expect(after.body.status).toBe('deleted');
      expect(after.body.postIds.map((p: { status: string }) => p.status)).toEqual(['deleted', 'deleted']);
    });

    test('published Instagram and TikTok copies cannot be deleted: per-platform errors', async () => {
      const mixed = await published(['tiktok', 'facebook']);
      const res = await api('DELETE', '/post', { json: { id: mixed } });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('error');
      expect(res.body.facebook).toEqual({ action: 'delete', status: 'success', id: expect.any(String) });
      expect(res.body.tiktok).toEqual(expect.objectContaining({ action: 'delete', status: 'error', code: 301 }));
      expect(res.body.errors).toEqual([expect.objectContaining({ platform: 'tiktok', code: 301, action: 'delete' })]);
      const after = await api('GET', `/post/${mixed}`);
      expect(after.body.status).toBe('success');
      expect(Object.fromEntries(after.body.postIds.map((p: { platform: string; status: string }) => [p.platform, p.status]))).toEqual({ tiktok: 'success', facebook: 'deleted' });

      const onlyInstagram = await published(['instagram']);
      const refused = await api('DELETE', '/post', { json: { id: onlyInstagram } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(expect.objectContaining({ status: 'error', errors: [expect.objectContaining({ platform: 'instagram', code: 301 })] }));
      expect((await api('GET', `/post/${onlyInstagram}`)).body.status).toBe('success');

      // markManualDeleted marks it deleted in Ayrshare only.
      const manual = await api('DELETE', '/post', { json: { id: onlyInstagram, markManualDeleted: true } });
      expect(manual.status).toBe(200);
      expect((await api('GET', `/post/${onlyInstagram}`)).body.status).toBe('deleted');
    });

    test('an unknown or foreign id is 404, a missing one 400', async () => {
      const id = await published(['facebook']);
      expect((await api('DELETE', '/post', { json: { id: 'nope' } })).status).toBe(404);
      expect((await call(a.url, 'DELETE', '/post', { key: 'sandbox_a_someone_else', json: { id } })).status).toBe(404);
      expect((await api('DELETE', '/post', { json: {} })).status).toBe(400);
    });
  });

  test('GET /history filters by lastDays and status; deleted posts only on request', async () => {
    const key = 'sandbox_a_history';
    const make = (body: Record<string, unknown>) => create({ platforms: ['facebook'], ...body }, key);
    const old = await make({});
    a.control.advance(10 * 24 * 60 * MINUTE);
    const recent = await make({});
    const cancelled = await make({ scheduleDate: inOneHour(a.control.now()) });
    await call(a.url, 'DELETE', '/post', { key, json: { id: cancelled.body.id } });
    a.control.advance(60_000);

    const list = async (query: string) => {
      const res = await call(a.url, 'GET', `/history${query}`, { key });
      expect(res.status).toBe(200);
      return res.body.history.map((p: { id: string }) => p.id);
    };
    expect(await list('')).toEqual([recent.body.id, old.body.id]);
    expect(await list('?lastDays=5')).toEqual([recent.body.id]);
    expect(await list('?lastDays=0')).toEqual([recent.body.id, old.body.id]);
    expect(await list('?status=deleted')).toEqual([cancelled.body.id]);
    expect(await list('?status=success&limit=1')).toEqual([recent.body.id]);
    const full = await call(a.url, 'GET', '/history', { key });
    expect(full.body).toEqual(expect.objectContaining({ count: 2, history: [expect.objectContaining({ status: 'success', postIds: [expect.any(Object)] }), expect.any(Object)] }));
    expect((await call(a.url, 'GET', '/history?lastDays=-1', { key })).status).toBe(400);
  });

  test('POST /analytics/post: per-network metrics with their own field names, growing with time since publish', async () => {
    const res = await create({ platforms: ['tiktok', 'instagram', 'youtube', 'facebook'], youTubeOptions: { title: 'T' } });
    const id = res.body.id;
    // The TikTok copy is still processing: no analytics for it yet.
    expect((await api('POST', '/analytics/post', { json: { id } })).body.tiktok).toBeUndefined();
    const scheduled = await create({ platforms: ['facebook'], scheduleDate: inOneHour(a.control.now()) });
    const early = await api('POST', '/analytics/post', { json: { id: scheduled.body.id } });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe(302);

    a.control.advance(60_000);
    a.control.advance(30 * MINUTE);
    const first = await api('POST', '/analytics/post', { json: { id } });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('success');
    expect(Object.keys(first.body.tiktok.analytics).sort()).toEqual(['comments', 'likes', 'reach', 'shares', 'videoViews']);
    expect(first.body.instagram.analytics).toEqual(expect.objectContaining({ views: expect.any(Number), likeCount: expect.any(Number), commentsCount: expect.any(Number), sharesCount: expect.any(Number) }));
    expect(first.body.youtube.analytics).toEqual(expect.objectContaining({ views: expect.any(Number), likes: expect.any(Number), comments: expect.any(Number), shares: expect.any(Number) }));
    expect(first.body.facebook.analytics).toEqual(expect.objectContaining({ videoViews: expect.any(Number), reactions: expect.objectContaining({ total: expect.any(Number) }), commentCount: expect.any(Number) }));
    expect(first.body.tiktok).toEqual(expect.objectContaining({ id: expect.any(String), postUrl: expect.stringContaining('tiktok.com') }));
    expect(first.body.tiktok.analytics.videoViews).toBeGreaterThan(0);

    // Sandbox time runs on (real time plus the test's offset): a read moments later never goes down
    // and moves by a view or so at most. The numbers for one elapsed time are fixed (engagement()).
    const again = (await api('POST', '/analytics/post', { json: { id } })).body.tiktok.analytics;
    for (const field of ['videoViews', 'reach', 'likes', 'comments', 'shares'] as const) {
      expect(again[field]).toBeGreaterThanOrEqual(first.body.tiktok.analytics[field]);
      expect(again[field] - first.body.tiktok.analytics[field]).toBeLessThanOrEqual(2);
    }

    a.control.advance(24 * 60 * MINUTE);
    const later = await api('POST', '/analytics/post', { json: { id, platforms: ['tiktok'] } });
    expect(Object.keys(later.body).sort()).toEqual(['id', 'status', 'tiktok']);
    expect(later.body.tiktok.analytics.videoViews).toBeGreaterThan(first.body.tiktok.analytics.videoViews);
    expect(later.body.tiktok.analytics.likes).toBeGreaterThanOrEqual(first.body.tiktok.analytics.likes);

    // By the network's own post id.
    const byPlatformId = await api('POST', '/analytics/post', { json: { id: later.body.tiktok.id, platforms: ['tiktok'], searchPlatformId: true } });
    expect(byPlatformId.body.tiktok.analytics).toEqual(later.body.tiktok.analytics);

    // A copy removed from its network reports an error there.
    await api('DELETE', '/post', { json: { id } });
    const afterDelete = await api('POST', '/analytics/post', { json: { id } });
    expect(afterDelete.body.facebook).toEqual(expect.objectContaining({ status: 'error', code: 303 }));
    expect(afterDelete.body.tiktok.analytics).toBeDefined();

    const social = await api('POST', '/analytics/social', { json: { platforms: ['tiktok', 'youtube'] } });
    expect(social.body.tiktok.analytics).toEqual(expect.objectContaining({ followerCount: expect.any(Number) }));
    expect(social.body.youtube.analytics).toEqual(expect.objectContaining({ subscriberCount: expect.any(Number) }));
  });

  test('fault injection: outage, rate limit, slow, malformed, dropped connections, counters', async () => {
    a.control.outage(2);
    expect((await api('GET', '/user')).status).toBe(503);
    const second = await api('GET', '/user');
    expect(second.status).toBe(503);
    expect(second.body).toEqual(expect.objectContaining({ status: 'error' }));
    expect((await api('GET', '/user')).status).toBe(200);

    a.control.rateLimit(1, 7);
    const limited = await api('GET', '/user');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await api('GET', '/user')).status).toBe(200);

    // A rate-limited create is not executed.
    a.control.rateLimit(1);
    const key = 'sandbox_a_faults';
    expect((await create({ platforms: ['facebook'] }, key)).status).toBe(429);
    expect((await call(a.url, 'GET', '/history', { key })).body.history).toEqual([]);

    a.control.slow(300, 1);
    const started = Date.now();
    expect((await api('GET', '/user')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    // Malformed answers: the request IS executed (the post exists), the answer is unreadable.
    a.control.malformed(1, 'json');
    const broken = await create({ platforms: ['facebook'] }, key);
    expect(broken.status).toBe(200);
    expect(broken.body).toBeUndefined();
    expect((await call(a.url, 'GET', '/history', { key })).body.history).toHaveLength(1);
    a.control.malformed(1, 'shape');
    const odd = await api('GET', '/user');
    expect(odd.status).toBe(200);
    expect(Array.isArray(odd.body.displayNames)).toBe(false);

    a.control.drop(1);
    await expect(api('GET', '/user')).rejects.toThrow();
    expect((await api('GET', '/user')).status).toBe(200);

    a.control.resetCounters();
    await api('GET', '/post/abc');
    await api('GET', '/post/def');
    await api('DELETE', '/post', { json: { id: 'abc' } });
    expect(a.control.count()).toBe(3);
    expect(a.control.count('GET /api/post/:id')).toBe(2);
    expect(a.control.count('GET /api/post/abc')).toBe(1);
    expect(a.control.count('DELETE')).toBe(1);
    expect(a.control.count('POST /api/post')).toBe(0);
    expect(a.control.counts()).toEqual({ 'GET /api/post/:id': 2, 'DELETE /api/post': 1 });
    expect(a.control.requests()[2]).toEqual(expect.objectContaining({ method: 'DELETE', path: '/api/post', body: { id: 'abc' } }));
  });

  test('state survives a restart when a state file is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-sandbox-a-'));
    try {
      const first = await startProviderASandbox({ stateFile: join(dir, 'a.json'), publishDelayMs: 0 });
      const res = await call(first.url, 'POST', '/post', { key: KEY, json: { post: 'kept', platforms: ['facebook'], mediaUrls: [VIDEO] } });
      await first.stop();
      const second = await startProviderASandbox({ stateFile: join(dir, 'a.json') });
      try {
        const got = await call(second.url, 'GET', `/post/${res.body.id}`, { key: KEY });
        expect(got.body).toEqual(expect.objectContaining({ status: 'success', post: 'kept' }));
      } finally {
        await second.stop();
      }
      // Without a state file a restart forgets.
      const third = await startProviderASandbox();
      try {
        expect((await call(third.url, 'GET', `/post/${res.body.id}`, { key: KEY })).status).toBe(404);
      } finally {
        await third.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('checkMedia refuses a media URL that does not answer', async () => {
    const strict = await startProviderASandbox({ checkMedia: true });
    try {
      const res = await call(strict.url, 'POST', '/post', { key: KEY, json: { post: '', platforms: ['facebook'], mediaUrls: [`${strict.origin}/missing.mp4`] } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(138);
    } finally {
      await strict.stop();
    }
  });
});

describe('provider_b sandbox (Post for Me contract)', () => {
  let b: ProviderBSandbox;
  const KEY = 'sandbox_b_tests';
  const api = (method: string, path: string, init: Parameters<typeof call>[3] = {}) => call(b.url, method, path, { key: KEY, ...init });
  let accounts: AccountIds;
  const create = (body: Record<string, unknown>, key = KEY) =>
    call(b.url, 'POST', '/v1/social-posts', { key, json: { caption: 'Watch this', social_accounts: [accounts.tiktok, accounts.facebook], media: [{ url: VIDEO }], ...body } });

  beforeAll(async () => {
    b = await startProviderBSandbox({ publishDelayMs: 60_000 });
    accounts = accountIds(b, KEY);
  });
  afterAll(() => b.stop());
  afterEach(() => b.control.reset());

  test('refuses a missing or foreign key with 401 {statusCode, message}', async () => {
    expect(b.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const key of [null, 'pfm_live_123', 'sandbox_a_wrong_sandbox']) {
      const res = await call(b.url, 'GET', '/v1/social-accounts', { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized' });
    }
  });

  test('GET /v1/social-accounts: five accounts per key (x disconnected), tokens included, paged with limit/offset', async () => {
    const res = await api('GET', '/v1/social-accounts');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ limit: 50, offset: 0, total: 5, next: null });
    expect(res.body.data.map((a: { platform: string; status: string }) => [a.platform, a.status])).toEqual([
      ['tiktok', 'connected'],
      ['instagram', 'connected'],
      ['youtube', 'connected'],
      ['facebook', 'connected'],
      ['x', 'disconnected'],
    ]);
    for (const account of res.body.data) {
      expect(account).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(/^spc_[A-Za-z0-9]{20}$/),
          username: `tests.${account.platform}`,
          user_id: expect.any(String),
          external_id: null,
          metadata: expect.any(Object),
          access_token: expect.stringMatching(/^sandbox_access_token_/),
          refresh_token: expect.stringMatching(/^sandbox_refresh_token_/),
        }),
      );
    }
    // The same ids on every start; other keys have their own.
    const other = await startProviderBSandbox();
    try {
      expect((await call(other.url, 'GET', '/v1/social-accounts', { key: KEY })).body.data).toEqual(res.body.data);
    } finally {
      await other.stop();
    }
    const foreign = await call(b.url, 'GET', '/v1/social-accounts', { key: 'sandbox_b_other' });
    expect(foreign.body.data[0].id).not.toBe(res.body.data[0].id);

    const page1 = await api('GET', '/v1/social-accounts?limit=2');
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.meta).toEqual({ limit: 2, offset: 0, total: 5, next: expect.stringContaining('offset=2') });
    const page3 = await call(page1.body.meta.next.replace('offset=2', 'offset=4'), 'GET', '', { key: KEY });
    expect(page3.body.data).toHaveLength(1);
    expect(page3.body.meta.next).toBeNull();
    expect((await api('GET', '/v1/social-accounts?platform=x&platform=tiktok')).body.data).toHaveLength(2);
    expect((await api('GET', '/v1/social-accounts?limit=0')).status).toBe(400);
    expect((await api('GET', `/v1/social-accounts/${accounts.youtube}`)).body.platform).toBe('youtube');
    expect((await api('GET', '/v1/social-accounts/spc_nope')).status).toBe(404);
  });

  test('POST /v1/social-posts validates with 400 "Invalid Request" and errors[]', async () => {
    const bad: Array<Record<string, unknown>> = [
      { caption: 7 },
      { social_accounts: [] },
      { social_accounts: ['spc_unknown'] },
      { media: [{ url: 'http://cdn.example.com/a.mp4' }] },
      { media: [{}] },
      { scheduled_at: 'next week' },
      { isDraft: 'yes' },
      // Post for Me's own rules: a caption is required and not empty, a schedule is in the future, an account is named once.
      { caption: '' },
      { scheduled_at: '2020-01-01T00:00:00Z' },
    ];
    for (const body of bad) {
      const res = await create(body);
      expect({ body, status: res.status, message: res.body.message, statusCode: res.body.statusCode }).toEqual({ body, status: 400, message: 'Invalid Request', statusCode: 400 });
      expect(res.body.errors).toEqual([expect.any(String)]);
    }
    expect((await api('POST', '/v1/social-posts', { raw: '{' })).status).toBe(400);
    expect((await create({}, 'sandbox_b_other')).status).toBe(400); // those accounts are not the other key's
    const twice = await create({ social_accounts: [accountIds(b, KEY).tiktok, accountIds(b, KEY).tiktok] });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([expect.stringContaining('unique')]);
  });

  test('GET /v1/social-posts filters by status, and refuses a status outside the enum', async () => {
    const key = 'sandbox_b_status_filter';
    const own = accountIds(b, key);
    const post = (extra: Record<string, unknown>) =>
      call(b.url, 'POST', '/v1/social-posts', { key, json: { caption: 'Watch this', social_accounts: [own.tiktok], media: [{ url: VIDEO }], ...extra } });
    const list = (query: string) => call(b.url, 'GET', `/v1/social-posts${query}`, { key });
    const draft = await post({ isDraft: true });
    const now = await post({});
    expect((await list('?status=draft')).body.data.map((p: { id: string }) => p.id)).toEqual([draft.body.id]);
    expect((await list('?status=draft,processing')).body.data.map((p: { id: string }) => p.id).sort()).toEqual([draft.body.id, now.body.id].sort());
    expect((await list('?status=published')).status).toBe(400);
  });

  test('account feeds fail per account with a 500, and every feed is 401 on an older plan', async () => {
    const mine = accountIds(b, KEY);
    b.control.failFeed(KEY, 'tiktok');
    expect((await api('GET', `/v1/social-account-feeds/${mine.tiktok}`)).status).toBe(500);
    expect((await api('GET', `/v1/social-account-feeds/${mine.instagram}`)).status).toBe(200);
    b.control.failFeed(KEY, 'tiktok', false);
    expect((await api('GET', `/v1/social-account-feeds/${mine.tiktok}`)).status).toBe(200);
    b.control.setLegacyPlan(KEY, true);
    const legacy = await api('GET', `/v1/social-account-feeds/${mine.instagram}`);
    expect(legacy.status).toBe(401);
    expect(legacy.body).toEqual({ statusCode: 401, message: 'This feature requires new_pricing plan' });
    b.control.setLegacyPlan(KEY, false);
  });

  test('a post published now: processing → processed, with one result per account', async () => {
    const res = await create({ external_id: 'our-42' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^sp_[A-Za-z0-9]{20}$/),
        caption: 'Watch this',
        status: 'processing',
        scheduled_at: null,
        media: [{ url: VIDEO }],
        external_id: 'our-42',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      }),
    );
    expect(res.body.social_accounts.map((a: { id: string }) => a.id)).toEqual([accounts.tiktok, accounts.facebook]);
    const id = res.body.id;
    expect((await api('GET', `/v1/social-post-results?post_id=${id}`)).body).toEqual({ data: [], meta: { limit: 50, offset: 0, total: 0, next: null } });

    b.control.advance(60_000);
    expect((await api('GET', `/v1/social-posts/${id}`)).body.status).toBe('processed');
    const results = await api('GET', `/v1/social-post-results?post_id=${id}`);
    expect(results.body.meta.total).toBe(2);
    const byAccount = Object.fromEntries(results.body.data.map((r: { social_account_id: string }) => [r.social_account_id, r]));
    expect(byAccount[accounts.tiktok]).toEqual({
      id: expect.stringMatching(/^spr_/),
      post_id: id,
      social_account_id: accounts.tiktok,
      success: true,
      error: null,
      details: expect.any(Object),
      platform_data: { id: expect.stringMatching(/^\d{19}$/), url: expect.stringContaining('https://www.tiktok.com/@tests.tiktok/video/') },
      media: [expect.objectContaining({ url: expect.stringMatching(/^https:\/\//) })],
    });
    expect(byAccount[accounts.facebook].success).toBe(true);
    const one = await api('GET', `/v1/social-post-results/${byAccount[accounts.tiktok].id}`);
    expect(one.body).toEqual(byAccount[accounts.tiktok]);
    expect((await api('GET', '/v1/social-posts?external_id=our-42')).body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await api('GET', '/v1/social-posts/sp_nope')).body).toEqual({ statusCode: 404, message: 'Post not found' });
    expect((await call(b.url, 'GET', `/v1/social-posts/${id}`, { key: 'sandbox_b_other' })).status).toBe(404);
  });

  test('a scheduled post waits for scheduled_at, then processes; a draft never does', async () => {
    const scheduled = await create({ scheduled_at: inOneHour(b.control.now()) });
    const draft = await create({ isDraft: true, scheduled_at: inOneHour(b.control.now()) });
    expect(scheduled.body.status).toBe('scheduled');
    expect(draft.body.status).toBe('draft');
    b.control.advance(59 * MINUTE);
    expect((await api('GET', `/v1/social-posts/${scheduled.body.id}`)).body.status).toBe('scheduled');
    b.control.advance(90_000);
    expect((await api('GET', `/v1/social-posts/${scheduled.body.id}`)).body.status).toBe('processing');
    b.control.advance(MINUTE);
    expect((await api('GET', `/v1/social-posts/${scheduled.body.id}`)).body.status).toBe('processed');
    b.control.advance(48 * 60 * MINUTE);
    expect((await api('GET', `/v1/social-posts/${draft.body.id}`)).body.status).toBe('draft');
    expect((await api('GET', `/v1/social-post-results?post_id=${draft.body.id}`)).body.data).toEqual([]);
  });

  test('failures are per account: a failing platform and a disconnected account, beside a success', async () => {
    b.control.failPlatform('instagram', { message: 'Instagram rejected the video: aspect ratio' });
    const res = await create({ social_accounts: [accounts.tiktok, accounts.instagram, accounts.x] });
    b.control.advance(60_000);
    const results = (await api('GET', `/v1/social-post-results?post_id=${res.body.id}`)).body.data;
    const byAccount = Object.fromEntries(results.map((r: { social_account_id: string }) => [r.social_account_id, r]));
    expect(byAccount[accounts.tiktok]).toEqual(expect.objectContaining({ success: true, error: null }));
    expect(byAccount[accounts.instagram]).toEqual(expect.objectContaining({ success: false, error: 'Instagram rejected the video: aspect ratio', platform_data: {} }));
    expect(byAccount[accounts.x]).toEqual(expect.objectContaining({ success: false, error: expect.stringMatching(/disconnected/) }));
    expect((await api('GET', `/v1/social-post-results?post_id=${res.body.id}&platform=instagram`)).body.data).toHaveLength(1);
  });

  test('DELETE only for draft or scheduled posts; processing and processed are 400', async () => {
    const draft = await create({ isDraft: true });
    const scheduled = await create({ scheduled_at: inOneHour(b.control.now()) });
    for (const id of [draft.body.id, scheduled.body.id]) {
      const res = await api('DELETE', `/v1/social-posts/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await api('GET', `/v1/social-posts/${id}`)).status).toBe(404);
    }
    const now = await create({});
    const processing = await api('DELETE', `/v1/social-posts/${now.body.id}`);
    expect(processing.status).toBe(400);
    expect(processing.body).toEqual({ statusCode: 400, message: 'Can only delete draft or scheduled posts' });
    b.control.advance(60_000);
    const processed = await api('DELETE', `/v1/social-posts/${now.body.id}`);
    expect(processed.status).toBe(400);
    expect(processed.body.message).toBe('Can only delete draft or scheduled posts');
    expect((await api('DELETE', '/v1/social-posts/sp_nope')).body).toEqual({ statusCode: 404, message: 'Post not found' });

    // A scheduled post whose time has come is no longer deletable.
    const due = await create({ scheduled_at: inOneHour(b.control.now()) });
    b.control.advance(61 * MINUTE);
    expect((await api('DELETE', `/v1/social-posts/${due.body.id}`)).status).toBe(400);
  });

  test('PUT replaces a draft; a processed post is refused', async () => {
    const draft = await create({ isDraft: true });
    const put = await api('PUT', `/v1/social-posts/${draft.body.id}`, { json: { caption: 'Edited', social_accounts: [accounts.youtube], media: [{ url: VIDEO }], scheduled_at: inOneHour(b.control.now()) } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual(expect.objectContaining({ caption: 'Edited', status: 'scheduled' }));
    const now = await create({});
    b.control.advance(60_000);
    const refused = await api('PUT', `/v1/social-posts/${now.body.id}`, { json: { caption: 'x', social_accounts: [accounts.tiktok] } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Post has already been processed');
  });

  test('account feeds: published copies with platform metrics on expand=metrics, growing with time, cursor-paged', async () => {
    const key = 'sandbox_b_feeds';
    const mine = accountIds(b, key);
    const post = (caption: string) => call(b.url, 'POST', '/v1/social-posts', { key, json: { caption, social_accounts: [mine.tiktok, mine.youtube], media: [{ url: VIDEO }] } });
    const first = await post('first');
    b.control.advance(10 * MINUTE);
    const second = await post('second');
    b.control.advance(30 * MINUTE);
    const feedOf = (account: string, query = '') => call(b.url, 'GET', `/v1/social-account-feeds/${account}${query}`, { key });

    const plain = await feedOf(mine.tiktok);
    expect(plain.status).toBe(200);
    expect(plain.body.data.map((d: { social_post_id: string }) => d.social_post_id)).toEqual([second.body.id, first.body.id]);
    expect(plain.body.data[0]).toEqual(
      expect.objectContaining({ platform_post_id: expect.any(String), platform_url: expect.stringContaining('tiktok.com'), posted_at: expect.any(String), social_post_id: second.body.id }),
    );
    expect(plain.body.data[0].metrics).toBeUndefined();
    expect(plain.body.meta).toEqual({ cursor: '', limit: 50, next: null, has_more: false });

    const withMetrics = await feedOf(mine.tiktok, '?expand=metrics');
    const tiktok = withMetrics.body.data[1].metrics;
    expect(Object.keys(tiktok).sort()).toEqual(['comment_count', 'like_count', 'share_count', 'view_count']);
    expect(tiktok.view_count).toBeGreaterThan(0);
    const youtube = (await feedOf(mine.youtube, '?expand=metrics')).body.data[0].metrics;
    expect(Object.keys(youtube).sort()).toEqual(['comments', 'dislikes', 'favorites', 'likes', 'views']);

    b.control.advance(6 * 60 * MINUTE);
    const later = (await feedOf(mine.tiktok, '?expand=metrics')).body.data[1].metrics;
    expect(later.view_count).toBeGreaterThan(tiktok.view_count);

    const page1 = await feedOf(mine.tiktok, '?limit=1');
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.meta).toEqual({ cursor: expect.any(String), limit: 1, next: expect.stringContaining('cursor='), has_more: true });
    const page2 = await feedOf(mine.tiktok, `?limit=1&cursor=${page1.body.meta.cursor}`);
    expect(page2.body.data.map((d: { social_post_id: string }) => d.social_post_id)).toEqual([first.body.id]);
    expect(page2.body.meta.has_more).toBe(false);
    expect((await feedOf(mine.tiktok, `?social_post_id=${first.body.id}`)).body.data).toHaveLength(1);
    expect((await feedOf(mine.tiktok, '?cursor=garbage')).status).toBe(400);
    // Post for Me answers any feed failure with a bare 500, an unknown account included.
    expect((await feedOf('spc_nope')).status).toBe(500);
    expect((await feedOf(accounts.tiktok)).status).toBe(500); // another key's account
  });

  test('fault injection and counters', async () => {
    b.control.rateLimit(2, 3);
    const limited = await api('GET', '/v1/social-accounts');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.body).toEqual({ statusCode: 429, message: 'Too Many Requests' });
    expect((await create({})).status).toBe(429);
    b.control.outage(1);
    expect((await api('GET', '/v1/social-accounts')).body).toEqual({ statusCode: 503, message: 'Service Unavailable' });
    b.control.malformed(1, 'shape');
    const odd = await api('GET', '/v1/social-accounts');
    expect(odd.status).toBe(200);
    expect(Array.isArray(odd.body.data)).toBe(false);
    expect((await api('GET', '/v1/social-accounts')).body.data).toHaveLength(5);

    b.control.resetCounters();
    const res = await create({});
    await api('GET', `/v1/social-posts/${res.body.id}`);
    expect(b.control.count('POST /v1/social-posts')).toBe(1);
    expect(b.control.count('GET /v1/social-posts/:id')).toBe(1);
    expect(b.control.count('DELETE /v1/social-posts/:id')).toBe(0);
    expect(b.control.count('/v1/social-posts')).toBe(1);
    expect(b.control.post(res.body.id)?.status).toBe('processing');
    b.control.advance(60_000);
    expect(b.control.results(res.body.id)).toHaveLength(2);
  });

  test('disconnecting an account shows in the listing and fails its later results', async () => {
    const key = 'sandbox_b_disconnect';
    const mine = accountIds(b, key);
    const res = await call(b.url, 'POST', `/v1/social-accounts/${mine.youtube}/disconnect`, { key });
    expect(res.body.status).toBe('disconnected');
    b.control.setAccountStatus(key, 'x', 'connected');
    const listed = (await call(b.url, 'GET', '/v1/social-accounts', { key })).body.data;
    expect(Object.fromEntries(listed.map((a: { platform: string; status: string }) => [a.platform, a.status]))).toEqual(
      expect.objectContaining({ youtube: 'disconnected', x: 'connected' }),
    );
  });
});

describe('sandboxes with the local stack', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rs-sandboxes-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('startSandboxes starts both and returns their URLs', async () => {
    const both = await startSandboxes();
    try {
      expect(both.urls).toEqual({ provider_a: both.providerA.url, provider_b: both.providerB.url });
      expect((await call(both.urls.provider_a, 'GET', '/user', { key: 'sandbox_a_x' })).status).toBe(200);
      expect((await call(both.urls.provider_b, 'GET', '/v1/social-accounts', { key: 'sandbox_b_x' })).status).toBe(200);
    } finally {
      await both.stop();
    }
  });

  test('wires the providers whose URL the user did not set to the sandboxes, and tells how to connect', async () => {
    const lines: string[] = [];
    const env = { PROVIDER_B_BASE_URL: 'https://api.postforme.dev' };
    const local = await startLocalSandboxes({ dataDir, log: (l) => lines.push(l), env });
    try {
      expect(local).toBeDefined();
      expect(local!.active).toEqual({ provider_a: true, provider_b: false });
      expect(local!.baseUrls).toEqual({ provider_a: local!.urls.provider_a, provider_b: 'https://api.postforme.dev' });
      expect(local!.connectHint(3)).toContain('npm run cli -- connections set --account 3 --provider provider_a --api-key sandbox_a_demo');
      expect(lines.join('\n')).toContain('PROVIDER_B_BASE_URL is set');

      // Another process on the data dir (the CLI) finds the URLs the stack uses.
      expect(readSandboxUrls(dataDir)).toEqual({ provider_a: local!.urls.provider_a, provider_b: undefined });
      expect(runningSandboxBaseUrls(dataDir, {})).toEqual({ provider_a: local!.urls.provider_a });
      expect(runningSandboxBaseUrls(dataDir, { PROVIDER_A_BASE_URL: 'https://api.ayrshare.com/api' })).toEqual({ provider_a: 'https://api.ayrshare.com/api' });
    } finally {
      await local?.stop();
    }
    expect(readSandboxUrls(dataDir)).toBeUndefined();
  });

  test('keeps posts across restarts under the data dir', async () => {
    const first = (await startLocalSandboxes({ dataDir, env: {} }))!;
    const created = await call(first.urls.provider_b, 'POST', '/v1/social-posts', {
      key: 'sandbox_b_demo',
      json: { caption: 'kept', social_accounts: [first.providerB.control.accounts('sandbox_b_demo')[0]!.id], isDraft: true },
    });
    await first.stop();
    const second = (await startLocalSandboxes({ dataDir, env: {} }))!;
    try {
      expect((await call(second.urls.provider_b, 'GET', `/v1/social-posts/${created.body.id}`, { key: 'sandbox_b_demo' })).body.caption).toBe('kept');
    } finally {
      await second.stop();
    }
  });

  test('a serving local stack starts them, exposes them and wires the adapters to them until it stops', async () => {
    const t = await startTestStack({ sandboxes: { env: {} } });
    try {
      const sandboxes = t.stack.sandboxes!;
      expect(sandboxes.active).toEqual({ provider_a: true, provider_b: true });
      expect(t.stack.settings.socialBaseUrls).toEqual(sandboxes.urls);
      expect(readSandboxUrls(t.dataDir)).toEqual(sandboxes.urls);
      expect((await call(sandboxes.urls.provider_a, 'GET', '/user', { key: 'sandbox_a_demo' })).status).toBe(200);
      const channels = await t.stack.dependencies.social('provider_a').listChannels({ apiKey: 'sandbox_a_demo' });
      expect(channels.length).toBeGreaterThan(0);
    } finally {
      await t.stop();
    }
    expect(readSandboxUrls(t.dataDir)).toBeUndefined();
  });

  test('SOCIAL_SANDBOXES=off starts nothing', async () => {
    expect(await startLocalSandboxes({ dataDir, env: { SOCIAL_SANDBOXES: 'off' } })).toBeUndefined();
  });
});

describe("engagement (the sandboxes' analytics)", () => {
  const published = Date.parse('2026-11-01T00:00:00Z');
  test('is a function of the post and the time since publish: the same inputs, the same numbers; later, never fewer', () => {
    const at = published + 3 * 3600_000;
    expect(engagement('p1:tiktok', published, at)).toEqual(engagement('p1:tiktok', published, at));
    const later = engagement('p1:tiktok', published, at + 24 * 3600_000);
    for (const [field, value] of Object.entries(engagement('p1:tiktok', published, at))) {
      expect(later[field as keyof typeof later]).toBeGreaterThanOrEqual(value);
    }
    expect(later.views).toBeGreaterThan(engagement('p1:tiktok', published, at).views);
  });
});

describe("saveWhenDirty (the sandboxes' state files)", () => {
  test('writes the snapshot only when something changed since the last write, and clears the flag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
    try {
      const store = stateFile<{ posts: string[] }>(join(dir, 'state.json'));
      const state = { dirty: false, store };
      saveWhenDirty(state, () => ({ posts: ['never written'] }));
      expect(store.load()).toBeUndefined();

      state.dirty = true;
      saveWhenDirty(state, () => ({ posts: ['p1'] }));
      expect(store.load()).toEqual({ posts: ['p1'] });
      expect(state.dirty).toBe(false);

      saveWhenDirty(state, () => ({ posts: ['p2'] }));
      expect(store.load()).toEqual({ posts: ['p1'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without a state file, nothing is written and the flag stays as it is', () => {
    const state = { dirty: true, store: undefined };
    let snapshots = 0;
    saveWhenDirty(state, () => ++snapshots);
    expect(snapshots).toBe(0);
    expect(state.dirty).toBe(true);
  });
});
