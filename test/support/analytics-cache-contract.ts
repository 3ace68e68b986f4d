/**
 * What every AnalyticsCache must do, run against the DynamoDB cache and the in-memory double the unit
 * tests use, so an overview built over the double reads what one built over the table would.
 */
import type { AnalyticsDay, CachedAnalytics } from '#domain/analytics';
import { POST_FIGURES_MAX, type PostFigures } from '#domain/analytics-breakdowns';
import type { ProviderName } from '#domain/social';
import type { AnalyticsCache } from '#ports/analytics-cache';

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const dayOf = (index: number, views = 1): AnalyticsDay => ({
  date: new Date(T0 - index * DAY_MS).toISOString().slice(0, 10),
  views,
  likes: 2,
  comments: 0,
  shares: 1,
  posts: 1,
});
const postOf = (index: number): PostFigures => ({
  post_id: `post-${String(index).padStart(6, '0')}-${'x'.repeat(24)}`,
  channel_id: index % 3 === 0 ? null : `channel-${index % 7}`,
  platform: index % 2 === 0 ? 'tiktok' : null,
  date: dayOf(index % 365).date,
  views: 1_000_000 + index,
  likes: index,
  comments: 0,
  shares: 3,
});

function entryOf(provider: ProviderName, days: number, syncedAt: string, figures: { daily: AnalyticsDay[]; posts?: PostFigures[] }): CachedAnalytics {
  const sum = (metric: keyof Omit<AnalyticsDay, 'date'>) => figures.daily.reduce((total, day) => total + day[metric], 0);
  const totals = { views: sum('views'), likes: sum('likes'), comments: sum('comments'), shares: sum('shares'), posts: sum('posts') };
  return { provider, days, synced_at: syncedAt, totals, ...figures };
}

const byProvider = (entries: CachedAnalytics[]) => [...entries].sort((a, b) => a.provider.localeCompare(b.provider));

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function analyticsCacheContract(cache: () => AnalyticsCache, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;

  describe('the analytics cache', () => {
    test('an account never synced lists nothing', async () => {
      expect(await cache().list(freshAccount())).toEqual([]);
    });

    test("a sync's entry reads back as it was written, one per provider, and only in its account", async () => {
      const accountId = freshAccount();
      const a = entryOf('provider_a', 30, '2026-03-01T09:00:00.000Z', { daily: [dayOf(2), dayOf(1)], posts: [postOf(1), postOf(2)] });
      const b = entryOf('provider_b', 7, '2026-03-01T09:30:00.000Z', { daily: [], posts: [] });
      await cache().put(accountId, b);
      await cache().put(accountId, a);
      expect(byProvider(await cache().list(accountId))).toEqual([a, b]);
      expect(await cache().list(accountId + 1)).toEqual([]);
    });

    test("a later sync replaces the provider's entry whole, and leaves the other provider's as it was", async () => {
      const accountId = freshAccount();
      const first = entryOf('provider_a', 90, '2026-03-01T09:00:00.000Z', { daily: [dayOf(3), dayOf(2), dayOf(1)], posts: [postOf(1)] });
      const other = entryOf('provider_b', 30, '2026-03-01T09:00:00.000Z', { daily: [dayOf(1, 5)], posts: [] });
      const later = entryOf('provider_a', 7, '2026-03-01T12:00:00.000Z', { daily: [dayOf(1, 9)], posts: [] });
      await cache().put(accountId, first);
      await cache().put(accountId, other);
      await cache().put(accountId, later);
      expect(byProvider(await cache().list(accountId))).toEqual([later, other]);
    });

    test('an entry without per-post figures (as syncs stored before they were kept) reads back without them', async () => {
      const accountId = freshAccount();
      const old = entryOf('provider_b', 30, '2026-02-01T09:00:00.000Z', { daily: [dayOf(40)] });
      await cache().put(accountId, old);
      const [read] = await cache().list(accountId);
      expect(read).toEqual(old);
      expect(read).not.toHaveProperty('posts');
    });

    test('the largest entry a sync stores (a year of days, the most posts it keeps) is kept whole', async () => {
      const accountId = freshAccount();
      const daily = Array.from({ length: 365 }, (_, i) => dayOf(364 - i, 1_000_000 + i));
      const posts = Array.from({ length: POST_FIGURES_MAX }, (_, i) => postOf(i));
      const largest = entryOf('provider_a', 365, '2026-03-01T09:00:00.000Z', { daily, posts });
      await cache().put(accountId, largest);
      expect(await cache().list(accountId)).toEqual([largest]);
    });

    test('what a caller does to an entry after writing or reading it does not change what is stored', async () => {
      const accountId = freshAccount();
      const entry = entryOf('provider_a', 30, '2026-03-01T09:00:00.000Z', { daily: [dayOf(1)], posts: [postOf(1)] });
      const written = structuredClone(entry);
      await cache().put(accountId, written);
      written.daily[0]!.views = 999;
      const [read] = await cache().list(accountId);
      read!.posts!.pop();
      read!.totals.views = 999;
      expect(await cache().list(accountId)).toEqual([entry]);
    });
  });
}
