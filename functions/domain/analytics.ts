/**
 * The analytics overview (`days` default 30, 1..365, else 400): what
 * the last sync of each connected provider stored, cut to the asked window and added up. Days are
 * UTC calendar days; the window ends today and holds `days` days.
 */
import { buildBreakdowns, type BreakdownInput, type Breakdowns, type PostFigures } from './analytics-breakdowns';
import { badRequest } from './errors';
import type { ProviderName } from './social';

export interface AnalyticsDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  posts: number;
}

/** What a provider reports for a window of days. */
export interface ProviderAnalytics {
  totals: Omit<AnalyticsDay, 'date'>;
  /** One entry per day of the window that had activity, oldest first. */
  daily: AnalyticsDay[];
  /** Channels whose figures could not be read this time (the others still count), with why. */
  skipped?: { channelId: string; reason: string }[];
  /** The same figures post by post (and network by network), for the breakdowns. */
  posts?: PostFigures[];
}

export const ANALYTICS_DAYS = { default: 30, min: 1, max: 365 } as const;

/** POST /analytics/sync pulls from every connected provider: a modest budget per account. */
export const ANALYTICS_SYNC_LIMIT = { limit: 6, windowMs: 60 * 60 * 1000 } as const;

export function daysParam(raw: string | undefined): number {
  if (raw === undefined) return ANALYTICS_DAYS.default;
  const message = `Query parameter days must be an integer from ${ANALYTICS_DAYS.min} to ${ANALYTICS_DAYS.max}`;
  if (!/^[0-9]{1,4}$/.test(raw)) throw badRequest(message);
  const days = Number(raw);
  if (days < ANALYTICS_DAYS.min || days > ANALYTICS_DAYS.max) throw badRequest(message);
  return days;
}

/** What a sync stored for one (account, provider). */
export interface CachedAnalytics {
  provider: ProviderName;
  /** The window the sync asked for. */
  days: number;
  synced_at: string;
  totals: ProviderAnalytics['totals'];
  daily: AnalyticsDay[];
  /** Per post, newest first (keepNewestPosts); absent in entries stored before they were kept. */
  posts?: PostFigures[];
}

type Totals = Omit<AnalyticsDay, 'date'>;

interface ProviderOverview {
  provider: ProviderName;
  /** null: connected but never synced (POST /analytics/sync fills it). */
  synced_at: string | null;
  /** The window of that sync. */
  synced_days: number | null;
  /** Whether that sync's window reaches back to the start of the asked one. */
  covers_window: boolean;
  totals: Totals;
  /** Days with activity inside the window, oldest first. */
  daily: AnalyticsDay[];
}

export interface AnalyticsOverview extends Breakdowns {
  days: number;
  /** First and last day of the window (YYYY-MM-DD, UTC). */
  since: string;
  until: string;
  totals: Totals;
  providers: ProviderOverview[];
  /** Every day of the window, oldest first, zeros where nothing happened. */
  daily: AnalyticsDay[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const zero = (): Totals => ({ views: 0, likes: 0, comments: 0, shares: 0, posts: 0 });
const METRICS = ['views', 'likes', 'comments', 'shares', 'posts'] as const;

function add(into: Totals, day: Totals): void {
  for (const metric of METRICS) into[metric] += Number(day[metric]) || 0;
}

export function overviewWindow(days: number, now: Date): { since: string; until: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { since: dateOf(today - (days - 1) * DAY_MS), until: dateOf(today) };
}

/** What names the posts in the breakdowns: our posts, their videos, the connected channels. */
export type BreakdownSources = Pick<BreakdownInput, 'ours' | 'videos' | 'channels'>;
const NO_SOURCES: BreakdownSources = { ours: [], videos: [], channels: [] };

/**
 * The overview for `connected` providers (in that order), from their cached syncs. Totals are the sum
 * of the daily series inside the window, so every figure on the page adds up; a provider synced with
 * a shorter window than the one asked shows `covers_window: false`. The breakdowns (per video, hook
 * and channel) come from the same syncs' per-post figures, named by `sources`.
 */
export function buildOverview(
  days: number,
  now: Date,
  connected: readonly ProviderName[],
  cached: readonly CachedAnalytics[],
  sources: BreakdownSources = NO_SOURCES,
): AnalyticsOverview {
  const { since, until } = overviewWindow(days, now);
  const inWindow = (day: AnalyticsDay) => day.date >= since && day.date <= until;
  const byDate = new Map<string, Totals>();
  const totals = zero();
  const providers = connected.map((provider): ProviderOverview => {
    const cache = cached.find((c) => c.provider === provider);
    if (!cache) return { provider, synced_at: null, synced_days: null, covers_window: false, totals: zero(), daily: [] };
    const daily = cache.daily.filter(inWindow).sort((a, b) => a.date.localeCompare(b.date));
    const providerTotals = zero();
    for (const day of daily) {
      add(providerTotals, day);
      const slot = byDate.get(day.date) ?? zero();
      add(slot, day);
      byDate.set(day.date, slot);
    }
    add(totals, providerTotals);
    const syncedSince = overviewWindow(cache.days, new Date(cache.synced_at)).since;
    return {
      provider,
      synced_at: cache.synced_at,
      synced_days: cache.days,
      covers_window: syncedSince <= since,
      totals: providerTotals,
      daily: daily.map((d) => ({ date: d.date, views: d.views, likes: d.likes, comments: d.comments, shares: d.shares, posts: d.posts })),
    };
  });
  const daily: AnalyticsDay[] = [];
  for (let ms = Date.parse(`${since}T00:00:00Z`); dateOf(ms) <= until; ms += DAY_MS) {
    daily.push({ date: dateOf(ms), ...(byDate.get(dateOf(ms)) ?? zero()) });
  }
  const figures = connected.map((provider) => ({ provider, posts: cached.find((c) => c.provider === provider)?.posts ?? [] }));
  return { days, since, until, totals, providers, daily, ...buildBreakdowns({ since, until, figures, ...sources }) };
}
