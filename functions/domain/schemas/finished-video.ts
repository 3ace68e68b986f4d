/** How a finished video is shown (videoView in functions/domain/video.ts answers this shape). */
import * as z from 'zod/mini';
import { createdAt, link, meaning, recordId, timestamp, testRecord } from './envelope';

export const finishedVideoResponse = z
  .object({
    id: meaning(recordId, "The video's id: a done job's `video_id`"),
    job_id: meaning(recordId, 'The job that made it'),
    product_id: meaning(recordId, 'The product it shows'),
    url: meaning(link, 'The video (MP4, H.264 and AAC), a signed link to play'),
    url_expires_at: meaning(timestamp, 'When the links stop working: GET the video again for fresh ones'),
    download_url: link.check(z.meta({ description: 'The same MP4 as url, answered with Content-Disposition: attachment, named after its product and hook (e.g. glow-serum-wait-for-it.mp4; reaction-video-<id>.mp4 when neither is known); it expires with url' })),
    thumbnail_url: meaning(link, 'The poster (JPEG): the reaction at its peak, captioned'),
    duration_s: meaning(z.number(), 'Its length in seconds'),
    width: meaning(z.int(), 'Width in pixels (1080)'),
    height: meaning(z.int(), 'Height in pixels (1920)'),
    size_bytes: meaning(z.int().check(z.nonnegative()), 'The MP4\'s size in bytes'),
    test: testRecord,
    expires_at: meaning(
      z.nullable(timestamp),
      "When its file (and poster) is deleted: its creation plus the retention of the plan it was made under (GET /plans, `video_retention_days`), rounded up to the next midnight UTC; null for a video kept until deleted",
    ),
    expired: meaning(
      z.boolean(),
      'Its file is past `expires_at` and gone (or about to be): the links lead nowhere, GET /videos/{id} answers 410 `video_expired`, and it cannot be published; the record stays until deleted',
    ),
    created_at: createdAt,
  })
  .register(z.globalRegistry, { id: 'Video', description: 'A finished video: the captioned reaction, then the product\'s demo, 1080x1920' });
