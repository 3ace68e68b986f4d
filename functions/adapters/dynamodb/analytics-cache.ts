/**
 * The analytics cache on DynamoDB: per (account, provider) the last successful sync
 * (`ANALYTICS#<provider>` in the account's partition).
 */
import type { CachedAnalytics } from '#domain/analytics';
import type { ProviderName } from '#domain/social';
import type { AnalyticsCache } from '#ports/analytics-cache';
import { keys } from './keys';
import { queryAll } from './pagination';
import { putItem } from './puts';
import type { DynamoTable } from './table';

const ANALYTICS_PREFIX = 'ANALYTICS#';
const analyticsKey = (accountId: number, provider: ProviderName) => ({ pk: keys.accountPartition(accountId), sk: `${ANALYTICS_PREFIX}${provider}` });

export class DynamoAnalyticsCache implements AnalyticsCache {
  constructor(private readonly table: DynamoTable) {}

  async put(accountId: number, entry: CachedAnalytics): Promise<void> {
    await putItem(this.table, { ...analyticsKey(accountId, entry.provider), type: 'analytics', account_id: accountId, ...entry });
  }

  async list(accountId: number): Promise<CachedAnalytics[]> {
    const items = await queryAll(this.table, keys.accountPartition(accountId), ANALYTICS_PREFIX);
    return items.map((item) => ({
      provider: item.provider as ProviderName,
      days: item.days as number,
      synced_at: item.synced_at as string,
      totals: item.totals as CachedAnalytics['totals'],
      daily: (item.daily as CachedAnalytics['daily'] | undefined) ?? [],
      // An entry stored before per-post figures were kept reads back without them, as it was written.
      ...(item.posts === undefined ? {} : { posts: item.posts as CachedAnalytics['posts'] }),
    }));
  }
}
