/** How a finished video is shown (videoView in functions/domain/video.ts answers this shape). */
import * as z from 'zod/mini';
import { link, recordId, timestamp } from './envelope';

export const finishedVideoResponse = z
  .object({
    id: recordId,
    job_id: recordId,
    product_id: recordId,
    url: link,
    url_expires_at: timestamp,
    download_url: link.check(z.meta({ description: 'The same MP4 as url, answered with Content-Disposition: attachment (filename reaction-video-<id>.mp4); it expires with url' })),
    thumbnail_url: link,
    duration_s: z.number(),
    width: z.int(),
    height: z.int(),
    size_bytes: z.int().check(z.nonnegative()),
    created_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'Video' });
