/**
 * Limits of the API that a client can check before it sends anything: the service's own rules read
 * these same values (functions/domain/social-post.ts, functions/domain/upload-record.ts), and so does
 * the studio (studio/src/intake/limits.ts), so the three cannot drift apart.
 */
import type { UploadPurpose } from './direct-uploads.js';
import type { components } from './schema.js';

type Platform = components['schemas']['Channel']['platform'];

/**
 * Caption limits in characters, as each network publishes them for a post's text: TikTok video
 * captions 2,200; Instagram captions 2,200; YouTube video descriptions 5,000; Facebook posts 63,206;
 * X posts 280 (non-Premium); LinkedIn posts 3,000; Threads posts 500; Pinterest pin descriptions 500;
 * Bluesky posts 300. A post goes to several channels with one caption, so the strictest limit among
 * the chosen channels' networks applies. Lengths are counted in Unicode code points (an emoji made of
 * one code point is one character); networks that weigh some characters double (X) may still refuse a
 * caption near the limit, which comes back as the provider's own reason.
 */
export const CAPTION_LIMITS: Readonly<Record<Platform, number>> = {
  tiktok: 2200,
  instagram: 2200,
  youtube: 5000,
  facebook: 63206,
  x: 280,
  linkedin: 3000,
  threads: 500,
  pinterest: 500,
  bluesky: 300,
};

const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo'];

/** The media types POST /uploads takes a declaration of, per purpose (the bytes decide again when the upload is used). */
export const UPLOAD_CONTENT_TYPES: Readonly<Record<UploadPurpose, readonly string[]>> = {
  demo_video: VIDEO_TYPES,
  avatar_image: ['image/jpeg', 'image/png', 'image/webp'],
  reference_video: VIDEO_TYPES,
  music: [
    'audio/mpeg',
    'audio/mp3',
    'audio/mp4',
    'audio/x-m4a',
    'audio/aac',
    'audio/wav',
    'audio/x-wav',
    'audio/wave',
    'audio/vnd.wave',
    'audio/ogg',
    'audio/opus',
    'audio/flac',
    'audio/x-flac',
  ],
};
