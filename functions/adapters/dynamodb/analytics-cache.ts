/**
 * The analytics cache: per (account, provider) the last successful sync (`ANALYTICS#<provider>` in
 * the account's partition). GET /analytics reads only this; POST /analytics/sync overwrites it.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { CachedAnalytics } from '#domain/analytics';
import type { ProviderName } from '#domain/social';
import { keys } from './keys';
import { allOfPrefix } from './pagination';

const ANALYTICS_PREFIX = 'ANALYTICS#';
const analyticsKey = (accountId: number, provider: ProviderName) => ({ pk: keys.accountPartition(accountId), sk: `${ANALYTICS_PREFIX}${provider}` });

export async function putAnalytics(accountId: number, entry: CachedAnalytics): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...analyticsKey(accountId, entry.provider), type: 'analytics', account_id: accountId, ...entry },
    }),
  );
}

export async function listAnalytics(accountId: number): Promise<CachedAnalytics[]> {
  const items = await allOfPrefix(keys.accountPartition(accountId), ANALYTICS_PREFIX);
  return items.map((item) => ({
    provider: item.provider as ProviderName,
    days: item.days as number,
    synced_at: item.synced_at as string,
    totals: item.totals as CachedAnalytics['totals'],
    daily: (item.daily as CachedAnalytics['daily'] | undefined) ?? [],
  }));
}

/** For a disconnect: the cached figures of a provider no longer connected are dropped. */
export async function deleteAnalytics(accountId: number, provider: ProviderName): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: config.tableName, Key: analyticsKey(accountId, provider) }));
}
