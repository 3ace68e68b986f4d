import { ANALYTICS_SYNC_LIMIT } from '#domain/analytics';
import { syncAnalytics } from '#use-cases/sync-analytics';
import { analyticsOverview } from '#use-cases/analytics-overview';
import { day } from '#test-doubles/memory/social-provider';
import { TIKTOK, socialWorld } from '#test-doubles/memory/social-world';

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
