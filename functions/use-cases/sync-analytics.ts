/**
 * Syncing analytics (POST /analytics/sync): every connected provider is asked at once and what each
 * answered is stored. One provider failing is reported in its entry (`status: failed` with
 * `{code, message}`) and keeps its earlier figures; a provider that could read only some of its
 * channels is `ok` with `skipped_accounts`. Syncs are limited per account (ANALYTICS_SYNC_LIMIT,
 * sliding window, 429 with Retry-After), since each one spends the account's quota at every provider.
 */
import { AppError } from '#domain/errors';
import { keepNewestPosts } from '#domain/analytics-breakdowns';
import { ANALYTICS_SYNC_LIMIT, type AnalyticsOverview, type CachedAnalytics } from '#domain/analytics';
import type { ProviderName } from '#domain/social';
import type { Ports } from '#ports/ports';
import { accessConnection } from './connection-credentials';
import { analyticsOverview, type AnalyticsOverviewDeps } from './analytics-overview';
import { logOf, type UseCaseLog } from './log';
import { failureSummary, reconnect } from './provider-errors';
import { socialRequestOf } from '#domain/test-mode';

/** Every provider is asked in parallel; all answers are in before API Gateway's 30 s. */
const SYNC_DEADLINE_MS = 20_000;

/** The overview's stores too: the sync answers the overview after it. */
export type SyncAnalyticsDeps = Pick<Ports, 'social' | 'cipher' | 'rateLimits' | 'now'> & AnalyticsOverviewDeps & { log?: UseCaseLog };

type SyncOutcome =
  | { provider: ProviderName; status: 'ok'; skipped_accounts?: { account_id: string; reason: string }[] }
  | { provider: ProviderName; status: 'failed'; error: { code: string; message: string } };

export interface AnalyticsSynced {
  days: number;
  synced_at: string;
  providers: SyncOutcome[];
  overview: AnalyticsOverview;
}

export async function syncAnalytics(deps: SyncAnalyticsDeps, input: { accountId: number; days: number }): Promise<AnalyticsSynced> {
  const { accountId, days } = input;
  await admitSync(deps, accountId);
  const now = deps.now();
  const linked = await deps.connections.list(accountId);
  const providers = await Promise.all(linked.map((c) => syncOne(deps, accountId, c.provider, days, now)));
  return { days, synced_at: now.toISOString(), providers, overview: await analyticsOverview(deps, { accountId, days, now }) };
}

async function admitSync(deps: Pick<Ports, 'rateLimits'>, accountId: number): Promise<void> {
  const decision = await deps.rateLimits.consume({ bucket: `analytics-sync:${accountId}`, ...ANALYTICS_SYNC_LIMIT });
  if (decision.allowed) return;
  const wait = decision.retryAfterS ?? 60;
  throw new AppError('rate_limited', `Analytics can be synced ${ANALYTICS_SYNC_LIMIT.limit} times an hour; retry in ${wait} s`, {
    headers: { 'retry-after': String(wait) },
  });
}

async function syncOne(deps: SyncAnalyticsDeps, accountId: number, provider: ProviderName, days: number, now: Date): Promise<SyncOutcome> {
  const access = await accessConnection(deps, accountId, provider);
  if (access.kind !== 'opened' || access.connection.status === 'error') {
    return { provider, status: 'failed', error: { code: 'conflict', message: reconnect(provider).message } };
  }
  try {
    const figures = await deps.social(provider, socialRequestOf(accountId)).analytics(access.credentials, { days, now }, { signal: AbortSignal.timeout(SYNC_DEADLINE_MS) });
    const entry: CachedAnalytics = { provider, days, synced_at: now.toISOString(), totals: figures.totals, daily: figures.daily, posts: keepNewestPosts(figures.posts ?? []) };
    await deps.analytics.put(accountId, entry);
    if (!figures.skipped?.length) return { provider, status: 'ok' };
    // Some channels could not be read this time: the figures stand for the others, and say so.
    return { provider, status: 'ok', skipped_accounts: figures.skipped.map((s) => ({ account_id: s.channelId, reason: s.reason })) };
  } catch (error) {
    const summary = failureSummary(error, provider, 'the analytics request');
    const log = logOf(deps);
    if (summary.code === 'internal_error') log.error('analytics sync failed', { provider, accountId, error: error as Error });
    else log.info('analytics sync failed at the provider', { provider, accountId, code: summary.code });
    return { provider, status: 'failed', error: summary };
  }
}
