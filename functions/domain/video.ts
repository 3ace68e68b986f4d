/** The finished video record and how clients see it (docs/decisions.md). */
import { isTestScope } from './test-mode';

/**
 * Every finished video's frame, portrait for the platforms it is posted to: the record states it, and
 * the render wing's canonical encoding (render/encoding) takes it from here so the two cannot differ.
 */
export const VIDEO_FRAME = { width: 1080, height: 1920 } as const;

export interface Video {
  id: number;
  account_id: number;
  job_id: number;
  product_id: number;
  key: string;
  poster_key: string;
  duration_s: number;
  width: number;
  height: number;
  size_bytes: number;
  created_at: string;
}

export interface VideoView {
  id: number;
  job_id: number;
  product_id: number;
  url: string;
  url_expires_at: string;
  download_url: string;
  thumbnail_url: string;
  duration_s: number;
  width: number;
  height: number;
  size_bytes: number;
  /** Made with a test key (domain/test-mode): watermarked, nothing charged. */
  test: boolean;
  created_at: string;
}

/** The name a downloaded video is saved under (download_url's Content-Disposition). */
export const videoDownloadName = (videoId: number) => `reaction-video-${videoId}.mp4`;

/** `download` is `playable` made to save as videoDownloadName, with the same expiry. */
export function videoView(video: Video, playable: { url: string; expiresAt: string }, download: { url: string }, poster: { url: string }): VideoView {
  return {
    id: video.id,
    job_id: video.job_id,
    product_id: video.product_id,
    url: playable.url,
    url_expires_at: playable.expiresAt,
    download_url: download.url,
    thumbnail_url: poster.url,
    duration_s: video.duration_s,
    width: video.width,
    height: video.height,
    size_bytes: video.size_bytes,
    test: isTestScope(video.account_id),
    created_at: video.created_at,
  };
}

export const videoObjectPrefix = (accountId: number, videoId: number) => `accounts/${accountId}/videos/${videoId}/`;
export const videoObjectKeys = (accountId: number, videoId: number) => ({
  video: `${videoObjectPrefix(accountId, videoId)}video.mp4`,
  poster: `${videoObjectPrefix(accountId, videoId)}poster.jpg`,
});
