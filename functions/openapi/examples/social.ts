/** Examples of publishing: scheduling providers, their channels, posts and the analytics pulled back. */
import type * as z from 'zod/mini';
import { channelSyncResponse, connectionResponse, disconnectResponse, postResponse } from '#domain/schemas/social';
import { analyticsOverviewResponse, analyticsSyncResponse } from '#domain/schemas/analytics';
import { CREATED_AT, IDS, UPDATED_AT, sample } from './sample';

const CHANNELS: z.output<typeof connectionResponse>['channels'] = [
  { id: 'acc_tt_82731', platform: 'tiktok', name: 'Glow Labs', username: 'glowlabs', active: true },
  { id: 'acc_ig_19284', platform: 'instagram', name: 'Glow Labs', username: 'glowlabs.skin', active: true },
];

const CONNECTION: z.output<typeof connectionResponse> = {
  provider: 'provider_a',
  status: 'active',
  key_hint: '…7f3a',
  channels: CHANNELS,
  connected_at: CREATED_AT,
  synced_at: UPDATED_AT,
  last_error: null,
};

export const POST: z.output<typeof postResponse> = {
  id: IDS.post,
  provider: 'provider_a',
  provider_post_id: 'pst_5b1e9c7a',
  video_id: IDS.video,
  account_ids: CHANNELS.map((channel) => channel.id),
  caption: 'Two weeks, one serum #skincare',
  schedule_at: null,
  draft: false,
  status: 'published',
  results: [
    { account_id: 'acc_tt_82731', platform: 'tiktok', status: 'published', url: 'https://www.tiktok.com/@glowlabs/video/7311234567890123456', error: null },
    { account_id: 'acc_ig_19284', platform: 'instagram', status: 'published', url: 'https://www.instagram.com/reel/C1a2B3c4D5e/', error: null },
  ],
  stale: false,
  stale_reason: null,
  refreshed_at: UPDATED_AT,
  created_at: CREATED_AT,
  updated_at: UPDATED_AT,
};

export const POST_FAILED: z.output<typeof postResponse> = {
  ...POST,
  status: 'partially_published',
  results: [POST.results[0]!, { ...POST.results[1]!, status: 'failed', url: null, error: 'Instagram refused the video: the account is not a business account' }],
};

const DAY = { date: '2026-11-24', views: 18_420, likes: 1_204, comments: 87, shares: 212, posts: 1 };
const TOTALS = { views: 18_420, likes: 1_204, comments: 87, shares: 212, posts: 1 };

const OVERVIEW: z.output<typeof analyticsOverviewResponse> = {
  days: 7,
  since: '2026-11-19',
  until: '2026-11-25',
  totals: TOTALS,
  providers: [{ provider: 'provider_a', synced_at: UPDATED_AT, synced_days: 30, covers_window: true, totals: TOTALS, daily: [DAY] }],
  daily: [DAY],
  by_video: [{ video_id: IDS.video, product_name: 'Glow Serum', hook_text: 'Wait for it…', ...TOTALS }],
  by_hook: [{ hook_text: 'Wait for it…', videos: 1, ...TOTALS }],
  by_channel: [{ provider: 'provider_a', channel_id: 'acc_tt_82731', platform: 'tiktok', name: 'Glow Labs', ...TOTALS }],
  best_hook: { hook_text: 'Wait for it…', videos: 1, ...TOTALS },
};

export const SOCIAL_SAMPLES = [
  sample(connectionResponse, CONNECTION),
  sample(disconnectResponse, { provider: 'provider_a', deleted: true }),
  sample(channelSyncResponse, { provider: 'provider_a', status: 'active', channels: CHANNELS, synced_at: UPDATED_AT, added: ['acc_ig_19284'], removed: [] }),
  sample(postResponse, POST),
  sample(analyticsOverviewResponse, OVERVIEW),
  sample(analyticsSyncResponse, { days: 7, synced_at: UPDATED_AT, providers: [{ provider: 'provider_a', status: 'ok' }], overview: OVERVIEW }),
];
