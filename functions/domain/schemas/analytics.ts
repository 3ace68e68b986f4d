/** GET /analytics and POST /analytics/sync (buildOverview in functions/domain/analytics.ts answers the overview). */
import * as z from 'zod/mini';
import { PLATFORMS, SOCIAL_PROVIDERS } from '#domain/social';
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
const postFigures = { ...figures, posts: count('Posts counted in the row') };
const hookRow = z
  .object({
    hook_text: meaning(z.string(), 'The hook (videos whose hooks differ only in case or spacing share a row)'),
    videos: count('Videos that carried it'),
    ...postFigures,
  })
  .register(z.globalRegistry, { id: 'AnalyticsHook', description: "One hook's posts added up over the window" });
const breakdowns = {
  by_video: meaning(
    z.array(
      z.object({
        video_id: meaning(z.int().check(z.positive()), 'The video (GET /videos/{id})'),
        product_name: meaning(z.nullable(z.string()), 'Its product; null when the video or product was deleted'),
        hook_text: meaning(z.nullable(z.string()), 'Its hook; null when it had none or was deleted'),
        ...postFigures,
      }),
    ),
    'Per video posted from the studio, most views first',
  ),
  by_hook: meaning(z.array(hookRow), 'Per hook of those videos, most views first'),
  by_channel: meaning(
    z.array(
      z.object({
        provider,
        channel_id: meaning(z.nullable(z.string()), 'The channel (GET /social/connections); null when the provider named only the network'),
        platform: meaning(z.nullable(z.enum(PLATFORMS)), 'Its network; null when unknown'),
        name: meaning(z.nullable(z.string()), 'Its display name while it is connected'),
        ...postFigures,
      }),
    ),
    'Per channel, every post counted (those made outside the studio too), most views first',
  ),
  best_hook: meaning(z.nullable(hookRow), 'The hook whose posts drew the most views in the window; null when no hooked post was viewed'),
};

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
    ...breakdowns,
  })
  .register(z.globalRegistry, {
    id: 'AnalyticsOverview',
    description: 'What the posts did over a window, from the last syncs: per provider and added up, and per video, hook and channel',
  });

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
