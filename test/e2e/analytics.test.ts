/**
 * Analytics end to end: posts published through both provider sandboxes (started by the local
 * runtime), synced with POST /analytics/sync and read back from the cache with GET /analytics.
 */
import type { Video } from '#domain/video';
import type { ProviderName } from '#domain/social';
import { makeFixture } from '#test-support/media-fixtures';
import { expectError, type ApiClient } from '#test-support/local-stack';
import { connectSandbox, seedFinishedVideo, startSandboxStack, type SandboxStack } from '#test-support/social';

const HOUR = 60 * 60_000;
const METRICS = ['views', 'likes', 'comments', 'shares', 'posts'] as const;

let t: SandboxStack;
let videoPath: string;

beforeAll(async () => {
  [t, videoPath] = await Promise.all([startSandboxStack(60_000), makeFixture('vertical-mp4')]);
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

const control = (provider: ProviderName) => t.control(provider);

afterEach(() => t.resetSandboxes());

/** A finished video titled "Glow Serum · Wait for it" unless `named` says otherwise. */
const seedVideo = (accountId: number, named = { product: 'Glow Serum', hook: 'Wait for it' as string | null }): Promise<Video> =>
  seedFinishedVideo(t.stack, accountId, { videoPath, posterBytes: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), sizeBytes: 1000, jobIdBase: 9000, productId: 1, named });

/** The active channel id per platform of a fresh connection. */
const connect = async (api: ApiClient, accountId: number, provider: ProviderName): Promise<Record<string, string>> =>
  (await connectSandbox(api, accountId, provider, 'analytics')).channel;

/** Sums a metric over a list of day rows or totals. */
const sum = (rows: Record<string, number>[], metric: string) => rows.reduce((n, r) => n + r[metric]!, 0);

function expectConsistent(overview: any, days: number) {
  expect(overview.days).toBe(days);
  expect(overview.daily).toHaveLength(days);
  expect(overview.daily[0].date).toBe(overview.since);
  expect(overview.daily[days - 1].date).toBe(overview.until);
  expect(overview.until).toBe(new Date().toISOString().slice(0, 10));
  for (const metric of METRICS) {
    expect(sum(overview.daily, metric)).toBe(overview.totals[metric]);
    expect(sum(overview.providers.map((p: any) => p.totals), metric)).toBe(overview.totals[metric]);
  }
}

describe('days', () => {
  test.each(['0', '366', '-1', '1.5', 'abc', '', '30d'])('?days=%s is a 400 on both endpoints', async (days) => {
    const { api } = await t.newAccount();
    expectError(await api.get(`/analytics?days=${days}`), 400, 'bad_request');
    const sync = await api.post(`/analytics/sync?days=${days}`);
    expectError(sync, 400, 'bad_request');
    expect(sync.body.error).toContain('days');
  });

  test('default 30; 1 and 365 are accepted', async () => {
    const { api } = await t.newAccount();
    expect((await api.get('/analytics')).body.data.days).toBe(30);
    expect((await api.get('/analytics?days=1')).body.data.days).toBe(1);
    expect((await api.get('/analytics?days=365')).body.data.daily).toHaveLength(365);
  });
});

describe('with nothing connected', () => {
  test('GET /analytics: zeros, no providers, every day of the window', async () => {
    const { api } = await t.newAccount();
    const res = await api.get('/analytics?days=7');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ days: 7, totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 }, providers: [] });
    expectConsistent(res.body.data, 7);
  });

  test('POST /analytics/sync: 200 with an empty provider list', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/analytics/sync?days=7');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ days: 7, synced_at: expect.any(String), providers: [], overview: expect.objectContaining({ days: 7, providers: [] }) });
  });
});

describe('syncing published posts from both providers', () => {
  test('sync pulls both in parallel, the overview adds them up, GET answers the same from the cache, failures are per provider', async () => {
    const { accountId, api } = await t.newAccount();
    const [a, b] = [await connect(api, accountId, 'provider_a'), await connect(api, accountId, 'provider_b')];
    const video = await seedVideo(accountId);

    // Connected, never synced: listed with no figures.
    const before = (await api.get('/analytics?days=7')).body.data;
    expect(before.providers).toEqual([
      { provider: 'provider_a', synced_at: null, synced_days: null, covers_window: false, totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 }, daily: [] },
      { provider: 'provider_b', synced_at: null, synced_days: null, covers_window: false, totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 }, daily: [] },
    ]);

    // Two posts that went out about two hours ago (sandbox clocks wound back while they are made).
    for (const provider of ['provider_a', 'provider_b'] as const) control(provider).setNow(Date.now() - 2 * HOUR);
    const posted = [
      await api.post('/social/posts', { provider: 'provider_a', video_id: video.id, account_ids: [a.tiktok, a.youtube], caption: 'a' }),
      await api.post('/social/posts', { provider: 'provider_b', video_id: video.id, account_ids: [b.tiktok, b.instagram], caption: 'b' }),
    ];
    expect(posted.map((r) => r.status)).toEqual([201, 201]);
    for (const provider of ['provider_a', 'provider_b'] as const) control(provider).setNow(Date.now());

    const synced = await api.post('/analytics/sync?days=7');
    expect(synced.status).toBe(200);
    expect(synced.body.data.providers).toEqual([
      { provider: 'provider_a', status: 'ok' },
      { provider: 'provider_b', status: 'ok' },
    ]);
    const overview = synced.body.data.overview;
    expectConsistent(overview, 7);
    expect(overview.totals.posts).toBe(2);
    expect(overview.totals.views).toBeGreaterThan(0);
    for (const p of overview.providers) {
      expect(p).toMatchObject({ synced_at: synced.body.data.synced_at, synced_days: 7, covers_window: true });
      expect(p.totals.posts).toBe(1);
      expect(p.totals.views).toBeGreaterThan(0);
    }

    // Broken down: the one video (both posts), its hook (the best of the window), each channel posted to.
    expect(overview.by_video).toEqual([{ video_id: video.id, product_name: 'Glow Serum', hook_text: 'Wait for it', ...overview.totals }]);
    expect(overview.by_hook).toEqual([{ hook_text: 'Wait for it', videos: 1, ...overview.totals }]);
    expect(overview.best_hook).toEqual(overview.by_hook[0]);
    const channels = overview.by_channel.map((c: any) => [c.provider, c.channel_id, c.platform]).sort();
    expect(channels).toEqual(
      [
        ['provider_a', a.tiktok, 'tiktok'],
        ['provider_a', a.youtube, 'youtube'],
        ['provider_b', b.instagram, 'instagram'],
        ['provider_b', b.tiktok, 'tiktok'],
      ].sort(),
    );
    for (const metric of ['views', 'likes', 'comments', 'shares'] as const) expect(sum(overview.by_channel, metric)).toBe(overview.totals[metric]);

    // GET reads the cache: the same figures, and no provider is asked.
    for (const provider of ['provider_a', 'provider_b'] as const) control(provider).resetCounters();
    const cached = await api.get('/analytics?days=7');
    expect(cached.body.data).toEqual(overview);
    expect(control('provider_a').count() + control('provider_b').count()).toBe(0);

    // A wider window than was synced says so.
    const wider = (await api.get('/analytics?days=30')).body.data;
    expectConsistent(wider, 30);
    expect(wider.totals).toEqual(overview.totals);
    expect(wider.providers.map((p: any) => p.covers_window)).toEqual([false, false]);

    // provider_b down: reported for it alone; its earlier figures stay; never a 500.
    control('provider_b').outage(1000, 0);
    const partial = await api.post('/analytics/sync?days=7');
    expect(partial.status).toBe(200);
    expect(partial.body.data.providers).toEqual([
      { provider: 'provider_a', status: 'ok' },
      { provider: 'provider_b', status: 'failed', error: { code: 'upstream_unavailable', message: expect.stringContaining('provider_b') } },
    ]);
    const kept = partial.body.data.overview.providers.find((p: any) => p.provider === 'provider_b');
    expect(kept.synced_at).toBe(synced.body.data.synced_at);
    expect(kept.totals.posts).toBe(1);
    control('provider_b').clearFaults();

    // provider_a answering garbage, provider_b rate limiting: both reported, still 200.
    control('provider_a').malformed(5, 'shape');
    control('provider_b').rateLimit(10, 300);
    const garbled = await api.post('/analytics/sync?days=7');
    expect(garbled.status).toBe(200);
    expect(garbled.body.data.providers).toEqual([
      { provider: 'provider_a', status: 'failed', error: { code: 'upstream_unavailable', message: expect.any(String) } },
      { provider: 'provider_b', status: 'failed', error: { code: 'rate_limited', message: expect.any(String) } },
    ]);
    control('provider_a').clearFaults();
    control('provider_b').clearFaults();

    // A disconnected provider drops out of the overview.
    expect((await api.delete('/social/connections/provider_b')).status).toBe(200);
    const after = (await api.get('/analytics?days=7')).body.data;
    expect(after.providers.map((p: any) => p.provider)).toEqual(['provider_a']);
    expectConsistent(after, 7);
  });
});

describe('provider_b account feeds fail per account', () => {
  test('one failing feed skips that channel (skipped_accounts), the others count; an older plan never asks to reconnect', async () => {
    const { accountId, api } = await t.newAccount();
    const { apiKey, channel } = await connectSandbox(api, accountId, 'provider_b', 'feeds');
    const video = await seedVideo(accountId);
    control('provider_b').setNow(Date.now() - 2 * HOUR);
    const posted = await api.post('/social/posts', { provider: 'provider_b', video_id: video.id, account_ids: [channel.tiktok, channel.instagram], caption: 'b' });
    expect(posted.status).toBe(201);
    control('provider_b').setNow(Date.now());

    t.stack.sandboxes!.providerB.control.failFeed(apiKey, 'tiktok');
    const partial = await api.post('/analytics/sync?days=7');
    expect(partial.status).toBe(200);
    expect(partial.body.data.providers).toEqual([
      { provider: 'provider_b', status: 'ok', skipped_accounts: [{ account_id: channel.tiktok, reason: expect.stringContaining('HTTP 500') }] },
    ]);
    expect(partial.body.data.overview.totals.posts).toBe(1);
    expect(partial.body.data.overview.totals.views).toBeGreaterThan(0);

    t.stack.sandboxes!.providerB.control.failFeed(apiKey, 'tiktok', false);
    t.stack.sandboxes!.providerB.control.setLegacyPlan(apiKey, true);
    const legacy = await api.post('/analytics/sync?days=7');
    expect(legacy.body.data.providers[0]).toMatchObject({ provider: 'provider_b', status: 'ok' });
    expect(legacy.body.data.providers[0].skipped_accounts.map((s: any) => s.reason)).toEqual(
      expect.arrayContaining([expect.stringContaining('new_pricing plan')]),
    );
    const connection = (await api.get('/social/connections')).body.data.find((c: any) => c.provider === 'provider_b');
    expect(connection.status).toBe('active');
    t.stack.sandboxes!.providerB.control.setLegacyPlan(apiKey, false);
  });
});

describe('limits and scopes', () => {
  test('POST /analytics/sync: 6 an hour per account, then 429 with Retry-After; refused and invalid requests do not count', async () => {
    const { api } = await t.newAccount();
    expectError(await api.post('/analytics/sync?days=0'), 400, 'bad_request');
    for (let i = 0; i < 6; i++) expect((await api.post('/analytics/sync')).status).toBe(200);
    const refused = await api.post('/analytics/sync');
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expectError(await api.post('/analytics/sync'), 429, 'rate_limited');
    // Reading the cache is not limited by it.
    expect((await api.get('/analytics')).status).toBe(200);
    // Another account has its own budget.
    expect((await (await t.newAccount()).api.post('/analytics/sync')).status).toBe(200);
  });

  test('a read-only key reads the overview but cannot sync (403)', async () => {
    const { api } = await t.newAccount({ scopes: ['read'] });
    expect((await api.get('/analytics')).status).toBe(200);
    expectError(await api.post('/analytics/sync'), 403, 'forbidden');
  });
});
