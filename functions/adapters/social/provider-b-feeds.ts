/**
 * provider_b analytics: the account feeds (`GET /v1/social-account-feeds/{id}?expand=metrics`), one
 * account at a time up to `concurrency`, each on its own.
 *
 * Post for Me answers any failure of a feed with a 500 (the network's API failed, the account's token
 * expired...) and a 401 "requires new_pricing plan" when the plan has no feeds; the key itself was
 * just accepted by the account listing, so neither says anything about the connection. One account's
 * failure therefore skips that account only (reported in `skipped`, its partial pages dropped so no
 * account is half counted). Only when every account failed is the provider's sync a failure: with the
 * first error, a 401 turned into `rejected` (a plan limit, not a key to reconnect). Rate limiting and
 * the caller's deadline still stop the whole pull.
 *
 * Paging: by `meta.cursor` while `has_more`; items are kept when `posted_at` is inside the window
 * (there is no date filter upstream) and summed per UTC day with METRIC_ALIASES. Paging stops early
 * once a whole page is older than the window (feeds list newest first) and after `maxPages`. `posts`
 * counts each Post for Me post once (by social_post_id) and each post made outside it on its own.
 */
import * as z from 'zod/mini';
import { ProviderError, isProviderError } from '#ports/social-provider';
import type { ProviderAnalytics } from '#domain/analytics';
import { AnalyticsTally, mapLimited, readMetrics, type Metrics, type ProviderHttp } from './provider-http';

const FeedItem = z.looseObject({
  platform_post_id: z.nullish(z.union([z.string(), z.number()])),
  social_post_id: z.nullish(z.string()),
  posted_at: z.nullish(z.string()),
  metrics: z.optional(z.unknown()),
});

const FeedPage = z.looseObject({
  data: z.array(FeedItem),
  meta: z.nullish(z.looseObject({ cursor: z.nullish(z.string()), has_more: z.nullish(z.boolean()), next: z.nullish(z.string()) })),
});

export interface FeedPull {
  accountIds: readonly string[];
  window: { from: Date; to: Date };
  concurrency: number;
  pageLimit: number;
  maxPages: number;
  signal?: AbortSignal;
}

type Entry = { at: Date; metrics: Metrics; key: string };

/** Failures that end the whole pull rather than one account's part of it. */
const stopsEverything = (error: unknown, signal?: AbortSignal) =>
  !isProviderError(error) || error.kind === 'rate_limited' || error.kind === 'timeout' || Boolean(signal?.aborted);

async function accountEntries(http: ProviderHttp, accountId: string, pull: FeedPull): Promise<Entry[]> {
  const { from, to } = pull.window;
  const entries: Entry[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < pull.maxPages; n++) {
    const page = await http.request(
      {
        method: 'GET',
        path: `/v1/social-account-feeds/${encodeURIComponent(accountId)}`,
        query: { expand: 'metrics', limit: pull.pageLimit, cursor },
        describe: 'account feed',
        signal: pull.signal,
      },
      FeedPage,
    );
    let olderThanWindow = page.data.length > 0;
    for (const item of page.data) {
      const at = item.posted_at ? new Date(Date.parse(item.posted_at)) : undefined;
      if (!at || Number.isNaN(at.getTime())) {
        olderThanWindow = false;
        continue;
      }
      if (at >= from) olderThanWindow = false;
      if (at < from || at > to) continue;
      entries.push({ at, metrics: readMetrics(item.metrics), key: item.social_post_id ?? `${accountId}:${String(item.platform_post_id ?? at.toISOString())}` });
    }
    const meta = page.meta;
    const more = meta?.has_more ?? Boolean(meta?.next);
    if (!more || !meta?.cursor || meta.cursor === cursor || olderThanWindow || page.data.length === 0) break;
    cursor = meta.cursor;
  }
  return entries;
}

function asPullFailure(error: ProviderError): ProviderError {
  if (error.kind !== 'auth') return error;
  return new ProviderError(error.provider, 'rejected', `${error.message.replace(/\.$/, '')} (account feeds need a plan that includes them)`, {
    status: error.status ?? undefined,
  });
}

export async function readAccountFeeds(http: ProviderHttp, pull: FeedPull): Promise<ProviderAnalytics> {
  const tally = new AnalyticsTally();
  const skipped: { channelId: string; reason: string }[] = [];
  const failures: ProviderError[] = [];
  await mapLimited(pull.accountIds, pull.concurrency, async (accountId) => {
    try {
      for (const entry of await accountEntries(http, accountId, pull)) tally.add(entry.at, entry.metrics, entry.key, { channelId: accountId });
    } catch (error) {
      if (stopsEverything(error, pull.signal)) throw error;
      const failure = asPullFailure(error as ProviderError);
      failures.push(failure);
      skipped.push({ channelId: accountId, reason: failure.message });
    }
  });
  // Refused feeds (no permission, unknown account) were never an error: only real failures of every account are.
  const real = failures.filter((f) => f.kind !== 'rejected' && f.kind !== 'not_found');
  if (pull.accountIds.length > 0 && failures.length === pull.accountIds.length && real.length > 0) throw real[0]!;
  const result = tally.result();
  return skipped.length > 0 ? { ...result, skipped } : result;
}
