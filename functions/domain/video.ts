/** The finished video record and how clients see it (docs/decisions.md). */
import { isTestScope } from './test-mode';
import { isVideoExpired } from './video-retention';

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
  /**
   * The retention its files were written with and when lifecycle removes them (domain/video-retention.ts);
   * absent on a video made before retention, which is kept until deleted. Not `expires_at`: that is
   * the table's TTL attribute (lib/table-schema.ts), and the record is not to expire with its file.
   */
  retention_days?: number;
  file_expires_at?: string;
  /**
   * The hook its job was finished with (null: none), for the download's file name; absent on a video
   * made before it was kept, whose job is read for it instead.
   */
  hook_text?: string | null;
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
  /** When its file goes under its plan's retention; null: kept until deleted. */
  expires_at: string | null;
  /** Its file is past retention: the links lead nowhere, GET /videos/{id} answers 410 video_expired. */
  expired: boolean;
  created_at: string;
}

/** What names a video where people see it: its product and its hook (either may be gone or absent). */
export interface VideoNaming {
  productName: string | null;
  hookText: string | null;
}

/** Words of a name as a file name's part: lower case, accents dropped, anything else one hyphen. */
const slugOf = (text: string | null) =>
  (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Long enough for a product and a hook; well within every file system's 255. */
const DOWNLOAD_NAME_MAX = 80;

/**
 * The name a downloaded video is saved under (download_url's Content-Disposition): what the studio
 * calls it ("<product> · <hook>") as plain ASCII, e.g. `glow-serum-wait-for-it.mp4`, so every
 * browser and file system keeps it as given; `reaction-video-<id>.mp4` when nothing names it.
 */
export function videoDownloadName(videoId: number, naming: VideoNaming = { productName: null, hookText: null }): string {
  const product = slugOf(naming.productName);
  const hook = slugOf(naming.hookText);
  const words = product && hook ? `${product}-${hook}` : product ? `${product}-video-${videoId}` : hook;
  const cut = words.slice(0, DOWNLOAD_NAME_MAX).replace(/-+$/, '');
  return `${cut || `reaction-video-${videoId}`}.mp4`;
}

/** `download` is `playable` made to save as videoDownloadName, with the same expiry. */
export function videoView(video: Video, playable: { url: string; expiresAt: string }, download: { url: string }, poster: { url: string }, now: Date): VideoView {
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
    expires_at: video.file_expires_at ?? null,
    expired: isVideoExpired(video, now),
    created_at: video.created_at,
  };
}

export const videoObjectPrefix = (accountId: number, videoId: number) => `accounts/${accountId}/videos/${videoId}/`;
export const videoObjectKeys = (accountId: number, videoId: number) => ({
  video: `${videoObjectPrefix(accountId, videoId)}video.mp4`,
  poster: `${videoObjectPrefix(accountId, videoId)}poster.jpg`,
});
