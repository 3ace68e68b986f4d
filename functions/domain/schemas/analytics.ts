/** GET /analytics and POST /analytics/sync (buildOverview in functions/domain/analytics.ts answers the overview). */
import * as z from 'zod/mini';
import { SOCIAL_PROVIDERS } from '#domain/social';
import { failure, meaning, timestamp } from './envelope';

const count = (what: string) => meaning(z.number().check(z.nonnegative()), what);
const date = z.iso.date();
const figures = {
  views: count('Views of the posts'),
  likes: count('Likes'),
  comments: count('Comments'),
  shares: count('Shares'),
  posts: count('Posts published'),
};
const totals = meaning(z.object(figures), 'The figures added up over the window');
const day = z.object({ date: meaning(date, 'The UTC day'), ...figures });
const daily = meaning(z.array(day), 'The figures day by day, oldest first');
const provider = meaning(z.enum(SOCIAL_PROVIDERS), 'The scheduling provider');

export const analyticsOverviewResponse = z
  .object({
    days: meaning(z.int().check(z.positive()), 'The window, in UTC days ending today (`days`)'),
    since: meaning(date, 'Its first day'),
    until: meaning(date, 'Its last day (today)'),
    totals,
    providers: meaning(
      z.array(
        z.object({
          provider,
          synced_at: meaning(z.nullable(timestamp), 'When its figures were last synced (POST /analytics/sync); null: never'),
          synced_days: meaning(z.nullable(z.int()), 'How many days back that sync reached; null: never synced'),
          covers_window: meaning(z.boolean(), 'Whether that sync reached back over the whole window'),
          totals,
          daily,
        }),
      ),
      'Each connected provider\'s figures',
    ),
    daily,
  })
  .register(z.globalRegistry, { id: 'AnalyticsOverview', description: 'What the posts did over a window, from the last syncs: per provider and added up' });

export const analyticsSyncResponse = z
  .object({
    days: meaning(z.int().check(z.positive()), 'How many days back each provider was asked for'),
    synced_at: meaning(timestamp, 'When'),
    providers: meaning(
      z.array(
        z.union([
          z
            .object({
              provider,
              status: meaning(z.literal('ok'), 'It answered; its figures are stored'),
              skipped_accounts: z.optional(
                meaning(
                  z.array(z.object({ account_id: meaning(z.string(), 'The channel'), reason: meaning(z.string(), 'Why it could not be read') })),
                  'Channels it could not read this time: the figures stand for the others',
                ),
              ),
            })
            .check(z.meta({ description: 'A provider that answered' })),
          z
            .object({ provider, status: meaning(z.literal('failed'), 'It did not answer; its earlier figures stay'), error: meaning(failure, 'Why') })
            .check(z.meta({ description: 'A provider that failed' })),
        ]),
      ),
      'What each connected provider answered',
    ),
    overview: analyticsOverviewResponse,
  })
  .register(z.globalRegistry, { id: 'AnalyticsSync', description: 'A sync of every connected provider, and the overview after it' });
