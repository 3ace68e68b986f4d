/**
 * How the analytics breakdowns name their rows: a video as the studio titles it everywhere, a
 * channel by its network and name, and the engagement a row earned per view.
 */
import { PLATFORM_LABEL } from '../social/social-words';
import { videoName } from '../videos/video-name';
import { formatCount, type Overview } from './analytics-words';

export type VideoRow = Overview['by_video'][number];
export type HookRow = Overview['by_hook'][number];
export type ChannelRow = Overview['by_channel'][number];

export const videoRowName = (row: VideoRow): string => videoName({ id: row.video_id, productName: row.product_name, hookText: row.hook_text });

/** Whether the row's video is still there to open (a deleted one keeps its figures, unnamed). */
export const videoStillThere = (row: VideoRow): boolean => row.product_name !== null || row.hook_text !== null;

export function channelRowName(row: ChannelRow): string {
  const network = row.platform ? PLATFORM_LABEL[row.platform] : 'Another network';
  const who = row.name ?? row.channel_id;
  return who ? `${network} · ${who}` : network;
}

/** Likes, comments and shares per view, as a percentage ("4.2%"); a dash without views. */
export function engagementRate(row: Pick<VideoRow, 'views' | 'likes' | 'comments' | 'shares'>): string {
  if (row.views <= 0) return '–';
  const rate = ((row.likes + row.comments + row.shares) / row.views) * 100;
  return `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}%`;
}

/** What the best hook did, in a line: "12,400 views from 2 videos". */
export function hookResult(row: Pick<HookRow, 'views' | 'videos'>): string {
  return `${formatCount(row.views)} view${row.views === 1 ? '' : 's'} from ${row.videos} video${row.videos === 1 ? '' : 's'}`;
}
