/** GET /analytics and POST /analytics/sync (buildOverview in functions/domain/analytics.ts answers the overview). */
import * as z from 'zod/mini';
import { SOCIAL_PROVIDERS } from '#domain/social';
import { failure, timestamp } from './envelope';

const count = z.number().check(z.nonnegative());
const date = z.iso.date();
const totals = z.object({ views: count, likes: count, comments: count, shares: count, posts: count });
const day = z.object({ date, views: count, likes: count, comments: count, shares: count, posts: count });
const provider = z.enum(SOCIAL_PROVIDERS);

export const analyticsOverviewResponse = z
  .object({
    days: z.int().check(z.positive()),
    since: date,
    until: date,
    totals,
    providers: z.array(
      z.object({
        provider,
        synced_at: z.nullable(timestamp),
        synced_days: z.nullable(z.int()),
        covers_window: z.boolean(),
        totals,
        daily: z.array(day),
      }),
    ),
    daily: z.array(day),
  })
  .register(z.globalRegistry, { id: 'AnalyticsOverview' });

export const analyticsSyncResponse = z
  .object({
    days: z.int().check(z.positive()),
    synced_at: timestamp,
    providers: z.array(
      z.union([
        z.object({
          provider,
          status: z.literal('ok'),
          skipped_accounts: z.optional(z.array(z.object({ account_id: z.string(), reason: z.string() }))),
        }),
        z.object({ provider, status: z.literal('failed'), error: failure }),
      ]),
    ),
    overview: analyticsOverviewResponse,
  })
  .register(z.globalRegistry, { id: 'AnalyticsSync' });
