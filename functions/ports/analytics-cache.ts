/** Per (account, provider) the figures of its last successful analytics sync; reads never call a provider. */
import type { CachedAnalytics } from '#domain/analytics';

export interface AnalyticsCache {
  /** Replaces what the provider's last sync stored. */
  put(accountId: number, entry: CachedAnalytics): Promise<void>;
  list(accountId: number): Promise<CachedAnalytics[]>;
}
