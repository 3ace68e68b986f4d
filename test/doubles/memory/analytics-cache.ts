/** Each provider's last analytics sync, in memory. */
import type { CachedAnalytics } from '#domain/analytics';
import type { AnalyticsCache } from '#ports/analytics-cache';

export class MemoryAnalyticsCache implements AnalyticsCache {
  readonly entries = new Map<string, CachedAnalytics>();

  async put(accountId: number, entry: CachedAnalytics): Promise<void> {
    this.entries.set(`${accountId}/${entry.provider}`, structuredClone(entry));
  }

  async list(accountId: number): Promise<CachedAnalytics[]> {
    return [...this.entries.entries()]
      .filter(([key]) => key.startsWith(`${accountId}/`))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, entry]) => structuredClone(entry));
  }
}
