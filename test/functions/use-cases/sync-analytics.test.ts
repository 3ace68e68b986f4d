import { ANALYTICS_SYNC_LIMIT } from '#domain/analytics';
import type { PostFigures } from '#domain/analytics-breakdowns';
import { syncAnalytics } from '#use-cases/sync-analytics';
import { analyticsOverview } from '#use-cases/analytics-overview';
import { publishPost } from '#use-cases/publish-post';
import { day } from '#test-doubles/memory/social-provider';
import { TIKTOK, YOUTUBE, socialWorld, type SocialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;
const NOW = new Date('2026-03-01T10:00:00Z');

async function bothConnected() {
  const world = socialWorld(NOW);
  await world.connect(ACCOUNT, 'provider_a', [TIKTOK]);
  await world.connect(ACCOUNT, 'provider_b', [TIKTOK]);
  world.provider_a.figures = { totals: { views: 10, likes: 1, comments: 0, shares: 0, posts: 1 }, daily: [day('2026-03-01', { views: 10, likes: 1, posts: 1 })] };
  world.provider_b.figures = { totals: { views: 5, likes: 0, comments: 2, shares: 1, posts: 1 }, daily: [day('2026-02-27', { views: 5, comments: 2, shares: 1, posts: 1 })] };
  return world;
}

const sync = (world: ReturnType<typeof socialWorld>, days = 7) => syncAnalytics(world.deps, { accountId: ACCOUNT, days });

describe('syncAnalytics', () => {
  test('asks every connected provider and stores what each answered; the overview adds them up', async () => {
    const world = await bothConnected();
    const synced = await sync(world);
    expect(synced).toMatchObject({ days: 7, synced_at: NOW.toISOString(), providers: [{ provider: 'provider_a', status: 'ok' }, { provider: 'provider_b', status: 'ok' }] });
    expect(synced.overview.totals).toEqual({ views: 15, likes: 1, comments: 2, shares: 1, posts: 2 });
    expect(world.provider_a.callsOf('analytics')[0]!.input).toEqual({ days: 7, now: NOW });
    expect(await analyticsOverview(world.deps, { accountId: ACCOUNT, days: 7, now: NOW })).toEqual(synced.overview);
  });

  test('one provider failing is reported in its entry and keeps its earlier figures; the others still count', async () => {
    const world = await bothConnected();
    await sync(world);
    world.provider_b.fail('analytics', world.provider_b.error('unavailable', 'down', { retryAfterS: 3 }));
    world.provider_a.figures = { totals: { views: 20, likes: 0, comments: 0, shares: 0, posts: 1 }, daily: [day('2026-03-01', { views: 20, posts: 1 })] };
    const synced = await sync(world);
    expect(synced.providers).toEqual([
      { provider: 'provider_a', status: 'ok' },
      { provider: 'provider_b', status: 'failed', error: { code: 'upstream_unavailable', message: expect.stringContaining('retry in 3 s') } },
    ]);
    expect(synced.overview.totals.views).toBe(25);
  });

  test('channels the provider could not read are named; an errored connection is not asked', async () => {
    const world = await bothConnected();
    world.provider_a.figures = { ...world.provider_a.figures, skipped: [{ channelId: TIKTOK.id, reason: 'token expired' }] };
    const connection = (await world.connections.get(ACCOUNT, 'provider_b'))!;
    await world.connections.markError(ACCOUNT, 'provider_b', connection.generation, { code: 'provider_refused_key', message: 'x' }, NOW);
    const synced = await sync(world);
    expect(synced.providers).toEqual([
      { provider: 'provider_a', status: 'ok', skipped_accounts: [{ account_id: TIKTOK.id, reason: 'token expired' }] },
      { provider: 'provider_b', status: 'failed', error: { code: 'conflict', message: expect.stringContaining('reconnect') } },
    ]);
    expect(world.provider_b.calls).toEqual([]);
  });

  test('nothing connected: an empty list', async () => {
    const synced = await sync(socialWorld(NOW));
    expect(synced.providers).toEqual([]);
    expect(synced.overview.providers).toEqual([]);
  });

  test(`limited to ${ANALYTICS_SYNC_LIMIT.limit} an hour per account: then 429 with Retry-After, and no provider is asked`, async () => {
    const world = await bothConnected();
    for (let i = 0; i < ANALYTICS_SYNC_LIMIT.limit; i++) await sync(world);
    const calls = world.provider_a.calls.length;
    await expect(sync(world)).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': expect.stringMatching(/^[1-9][0-9]*$/) } });
    expect(world.provider_a.calls).toHaveLength(calls);
    // Another account has its own budget.
    await expect(syncAnalytics(world.deps, { accountId: ACCOUNT + 1, days: 7 })).resolves.toMatchObject({ providers: [] });
  });
});

describe('the breakdowns per video, hook and channel', () => {
  const posted = (post_id: string, date: string, views: number, place: Partial<PostFigures>): PostFigures => ({
    post_id,
    channel_id: null,
    platform: null,
    date,
    views,
    likes: 1,
    comments: 0,
    shares: 0,
    ...place,
  });

  async function publish(world: SocialWorld, provider: 'provider_a' | 'provider_b', videoId: number, channels: string[]) {
    return publishPost(world.deps, {
      accountId: ACCOUNT,
      request: { provider, videoId, accountIds: channels, caption: 'new drop', scheduleAt: null, draft: false },
    });
  }

  test('our posts name the videos and hooks; the best hook of the window is the one with the most views', async () => {
    const world = socialWorld(NOW);
    await world.connect(ACCOUNT, 'provider_a', [TIKTOK, YOUTUBE]);
    await world.connect(ACCOUNT, 'provider_b', [TIKTOK]);
    const serum = await world.video(ACCOUNT, { product: 'Glow Serum', hook: 'Wait for it' });
    const cream = await world.video(ACCOUNT, { product: 'Night Cream', hook: 'POV: your skin at 7am' });
    const a = await publish(world, 'provider_a', serum.id, [TIKTOK.id, YOUTUBE.id]);
    const b = await publish(world, 'provider_b', cream.id, [TIKTOK.id]);
    // provider_a reports per network, provider_b per channel; one provider_b post was made elsewhere.
    const aPosts = [posted(a.provider_post_id, '2026-02-28', 300, { platform: 'tiktok' }), posted(a.provider_post_id, '2026-02-28', 20, { platform: 'youtube' })];
    const bPosts = [posted(b.provider_post_id, '2026-02-27', 90, { channel_id: TIKTOK.id }), posted('made-elsewhere', '2026-02-26', 5, { channel_id: TIKTOK.id })];
    world.provider_a.figures = { totals: { views: 320, likes: 2, comments: 0, shares: 0, posts: 1 }, daily: [day('2026-02-28', { views: 320, likes: 2, posts: 1 })], posts: aPosts };
    world.provider_b.figures = { totals: { views: 95, likes: 2, comments: 0, shares: 0, posts: 2 }, daily: [day('2026-02-27', { views: 95, likes: 2, posts: 2 })], posts: bPosts };

    await sync(world, 30);
    const overview = await analyticsOverview(world.deps, { accountId: ACCOUNT, days: 30, now: NOW });

    expect(overview.by_video).toEqual([
      { video_id: serum.id, product_name: 'Glow Serum', hook_text: 'Wait for it', views: 320, likes: 2, comments: 0, shares: 0, posts: 1 },
      { video_id: cream.id, product_name: 'Night Cream', hook_text: 'POV: your skin at 7am', views: 90, likes: 1, comments: 0, shares: 0, posts: 1 },
    ]);
    expect(overview.by_hook.map((h) => [h.hook_text, h.views, h.videos])).toEqual([
      ['Wait for it', 320, 1],
      ['POV: your skin at 7am', 90, 1],
    ]);
    expect(overview.best_hook).toMatchObject({ hook_text: 'Wait for it', views: 320 });
    expect(overview.by_channel.map((c) => [c.provider, c.channel_id, c.platform, c.name, c.views, c.posts])).toEqual([
      ['provider_a', TIKTOK.id, 'tiktok', TIKTOK.name, 300, 1],
      ['provider_b', TIKTOK.id, 'tiktok', TIKTOK.name, 95, 2],
      ['provider_a', YOUTUBE.id, 'youtube', YOUTUBE.name, 20, 1],
    ]);

    // A shorter window leaves the older posts out; a deleted video keeps its figures, unnamed.
    const lastTwoDays = await analyticsOverview(world.deps, { accountId: ACCOUNT, days: 2, now: NOW });
    expect(lastTwoDays.by_video.map((v) => v.video_id)).toEqual([serum.id]);
    await world.videos.delete(ACCOUNT, serum.id);
    const afterDelete = await analyticsOverview(world.deps, { accountId: ACCOUNT, days: 30, now: NOW });
    expect(afterDelete.by_video[0]).toMatchObject({ video_id: serum.id, product_name: null, hook_text: null, views: 320 });
    expect(afterDelete.best_hook).toMatchObject({ hook_text: 'POV: your skin at 7am' });
  });

  test('a provider that reports no posts leaves the breakdowns empty, and the totals as they were', async () => {
    const world = await bothConnected();
    const synced = await sync(world);
    expect(synced.overview).toMatchObject({ by_video: [], by_hook: [], by_channel: [], best_hook: null });
    expect(synced.overview.totals.views).toBe(15);
  });
});
