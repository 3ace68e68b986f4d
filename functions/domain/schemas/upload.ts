/** Direct-upload inputs and answers as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { UPLOAD_PURPOSES } from '#domain/upload-record';
import { inspectReferenceUrl } from '#domain/reference-url';
import { withoutControlCharacters } from './common';
import { link, timestamp } from './envelope';

/** A positive byte count: a JSON integer or, in a form, a string of digits. */
const byteCount = z.union(
  [
    z.int().check(z.positive('must be a positive integer'), z.maximum(Number.MAX_SAFE_INTEGER, 'must be a positive integer')),
    z.pipe(z.string().check(z.regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')), z.transform(Number)),
  ],
  { error: 'must be a positive integer' },
);

export const createUploadInput = z.strictObject({
  purpose: z.enum(UPLOAD_PURPOSES, { error: `must be one of ${UPLOAD_PURPOSES.join(', ')}` }),
  content_type: z
    .string({ error: 'must be a string' })
    .check(z.trim(), z.toLowerCase(), z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters')),
  size_bytes: byteCount,
  filename: z.optional(
    z.string({ error: 'must be a string' }).check(z.trim(), z.maxLength(255, 'must be at most 255 characters'), withoutControlCharacters('line')),
  ),
});
export type CreateUploadInput = z.infer<typeof createUploadInput>;

/** An upload id as a body field names it (a UUID, as POST /uploads answers it). */
export const uploadIdField = z
  .string({ error: 'must be an upload id' })
  .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be an upload id (from POST /uploads)'));

/** A file the request links to instead of sending: https to a host name; fetched from public addresses only. */
export const linkedFileUrl = z
  .string({ error: 'must be a string' })
  .check(
    z.refine((value) => inspectReferenceUrl(value, { allowedDomains: 'any' }).ok, {
      message: 'must be an https link to a host name (no IP address, port, user name or password; at most 2048 characters)',
    }),
  );

export const uploadResponse = z
  .object({
    id: z.string().check(z.meta({ description: 'Name it in the body where the file would go (demo_video_upload_id, image_upload_id, reference_video_upload_id)' })),
    purpose: z.enum(UPLOAD_PURPOSES),
    method: z.enum(['POST', 'PUT']).check(z.meta({ description: 'POST: a multipart form with `fields` then the file as `file`; PUT: the raw bytes with `headers`' })),
    url: link,
    fields: z.optional(z.record(z.string(), z.string())),
    headers: z.optional(z.record(z.string(), z.string())),
    max_bytes: z.int().check(z.meta({ description: 'The declared size: a larger object is refused by storage or when used' })),
    expires_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'Upload', description: 'A one-time, one-hour form to send one file straight to storage' });
