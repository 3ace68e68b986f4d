/**
 * Analytics (API.md §4 Analytics, DESIGN §2: `days` default 30, 1..365, else 400).
 *
 * - GET /analytics reads only the cache: what the last sync of each connected provider stored, cut
 *   to the window and added up. No provider is called, so it is fast and never fails upstream.
 * - POST /analytics/sync asks every connected provider at once and stores what each answered. One
 *   provider failing is reported in its entry (`status: failed`, `error: {code, message}`) and keeps
 *   its earlier figures; the request still answers 200. A provider that could read only some of its
 *   channels is `ok` with `skipped_accounts`. No provider connected: 200 with an empty
 *   list. Syncs are limited per account (ANALYTICS_SYNC_LIMIT, sliding window, 429 with Retry-After),
 *   since each one spends the account's quota at every provider.
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import { ok } from '#http/respond';
import { logger } from '#functions/logger';
import { AppError } from '#domain/errors';
import { ANALYTICS_SYNC_LIMIT, buildOverview, daysParam, type CachedAnalytics } from '#domain/analytics';
import type { ProviderName } from '#domain/social';
import { isCredentialCipherError } from '#ports/credential-cipher';
import { socialProvider } from '#adapters/social/registry';
import * as connections from '#adapters/dynamodb/connections';
import * as cache from '#adapters/dynamodb/analytics-cache';
import { consume } from '#adapters/dynamodb/rate-limiter';
import { failureSummary, reconnect } from './provider-errors';

/** Every provider is asked in parallel; all answers are in before API Gateway's 30 s. */
const SYNC_DEADLINE_MS = 20_000;

async function overviewOf(accountId: number, days: number, now: Date) {
  const [linked, cached] = await Promise.all([connections.listConnections(accountId), cache.listAnalytics(accountId)]);
  return buildOverview(
    days,
    now,
    linked.map((c) => c.provider),
    cached,
  );
}

const overview: Operation = async (request) => {
  const days = daysParam(request.query.days);
  return ok(await overviewOf(request.principal.accountId, days, new Date()));
};

async function admitSync(accountId: number): Promise<void> {
  const decision = await consume({ bucket: `analytics-sync:${accountId}`, ...ANALYTICS_SYNC_LIMIT });
  if (decision.allowed) return;
  const wait = decision.retryAfterS ?? 60;
  throw new AppError('rate_limited', `Analytics can be synced ${ANALYTICS_SYNC_LIMIT.limit} times an hour; retry in ${wait} s`, {
    headers: { 'retry-after': String(wait) },
  });
}

type SyncOutcome =
  | { provider: ProviderName; status: 'ok'; skipped_accounts?: { account_id: string; reason: string }[] }
  | { provider: ProviderName; status: 'failed'; error: { code: string; message: string } };

async function syncOne(accountId: number, provider: ProviderName, days: number, now: Date): Promise<SyncOutcome> {
  let opened: connections.OpenedConnection | undefined;
  try {
    opened = await connections.getConnection(accountId, provider, { credentials: true });
  } catch (error) {
    if (!isCredentialCipherError(error)) throw error;
  }
  if (!opened || opened.connection.status === 'error') {
    return { provider, status: 'failed', error: { code: 'conflict', message: reconnect(provider).message } };
  }
  try {
    const figures = await socialProvider(provider).analytics(opened.credentials, { days, now }, { signal: AbortSignal.timeout(SYNC_DEADLINE_MS) });
    const entry: CachedAnalytics = { provider, days, synced_at: now.toISOString(), totals: figures.totals, daily: figures.daily };
    await cache.putAnalytics(accountId, entry);
    if (!figures.skipped?.length) return { provider, status: 'ok' };
    // Some channels could not be read this time: the figures stand for the others, and say so.
    return { provider, status: 'ok', skipped_accounts: figures.skipped.map((s) => ({ account_id: s.channelId, reason: s.reason })) };
  } catch (error) {
    const summary = failureSummary(error, provider, 'the analytics request');
    if (summary.code === 'internal_error') logger.error('analytics sync failed', { provider, accountId, error: error as Error });
    else logger.info('analytics sync failed at the provider', { provider, accountId, code: summary.code });
    return { provider, status: 'failed', error: summary };
  }
}

const sync: Operation = async (request: AuthenticatedRequest) => {
  const accountId = request.principal.accountId;
  const days = daysParam(request.query.days);
  await admitSync(accountId);
  const now = new Date();
  const linked = await connections.listConnections(accountId);
  const outcomes = await Promise.all(linked.map((c) => syncOne(accountId, c.provider, days, now)));
  return ok({ days, synced_at: now.toISOString(), providers: outcomes, overview: await overviewOf(accountId, days, now) });
};

export const analyticsOperations = { overview, sync };
