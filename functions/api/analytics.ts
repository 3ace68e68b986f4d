/**
 * Analytics (`days` default 30, 1..365, else 400). GET /analytics reads only the cache (what each
 * connected provider's last sync stored); POST /analytics/sync asks every connected provider at once
 * and answers 200 even when some of them failed, each entry saying how its provider fared (see
 * #use-cases/sync-analytics). No provider connected: 200 with an empty list.
 */
import type { Operation } from '#http/api-types';
import type { NeedsOf } from '#ports/ports';
import { ok } from '#http/respond';
import { logger } from '#functions/logger';
import { daysParam } from '#domain/analytics';
import { analyticsOverview } from '#use-cases/analytics-overview';
import { syncAnalytics } from '#use-cases/sync-analytics';

const overview: Operation<NeedsOf<typeof analyticsOverview>> = async (request) => {
  const days = daysParam(request.query.days);
  return ok(await analyticsOverview(request.deps, { accountId: request.principal.accountId, days, now: request.deps.now() }));
};

const sync: Operation<NeedsOf<typeof syncAnalytics>> = async (request) => {
  const days = daysParam(request.query.days);
  return ok(await syncAnalytics({ ...request.deps, log: logger }, { accountId: request.principal.accountId, days }));
};

export const analyticsOperations = { overview, sync };
