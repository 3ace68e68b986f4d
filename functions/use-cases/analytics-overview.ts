/**
 * The analytics overview: what the last sync of each connected provider stored, cut to the window
 * and added up. No provider is called, so it is fast and never fails upstream.
 */
import { buildOverview, type AnalyticsOverview } from '#domain/analytics';
import type { Dependencies } from '#ports/dependencies';

export async function analyticsOverview(
  deps: Pick<Dependencies, 'connections' | 'analytics'>,
  input: { accountId: number; days: number; now: Date },
): Promise<AnalyticsOverview> {
  const [linked, cached] = await Promise.all([deps.connections.list(input.accountId), deps.analytics.list(input.accountId)]);
  return buildOverview(
    input.days,
    input.now,
    linked.map((c) => c.provider),
    cached,
  );
}
