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
  purpose: z
    .enum(UPLOAD_PURPOSES, { error: `must be one of ${UPLOAD_PURPOSES.join(', ')}` })
    .check(z.meta({ description: 'Where the file will go: `demo_video` (POST /products), `avatar_image` (POST /avatars), `reference_video` (POST /videos), `music` (POST /music)' })),
  content_type: z
    .string({ error: 'must be a string' })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(100, 'must be at most 100 characters'),
      z.meta({ description: "The file's media type (`video/mp4`...): one the purpose takes, or 415" }),
    ),
  size_bytes: byteCount.check(z.meta({ description: "The file's size in bytes: at most the purpose's limit (413 otherwise); a larger file is refused by storage" })),
  filename: z.optional(
    z
      .string({ error: 'must be a string' })
      .check(z.trim(), z.maxLength(255, 'must be at most 255 characters'), withoutControlCharacters('line'), z.meta({ description: "The file's name, kept for what it makes (a track's name)" })),
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
    purpose: z.enum(UPLOAD_PURPOSES).check(z.meta({ description: 'As declared' })),
    method: z.enum(['POST', 'PUT']).check(z.meta({ description: 'POST: a multipart form with `fields` then the file as `file`; PUT: the raw bytes with `headers`' })),
    url: link.check(z.meta({ description: 'Where to send the file' })),
    fields: z.optional(z.record(z.string(), z.string()).check(z.meta({ description: '`POST`: the form fields to send first, as they are' }))),
    headers: z.optional(z.record(z.string(), z.string()).check(z.meta({ description: '`PUT`: the headers to send with the bytes' }))),
    max_bytes: z.int().check(z.meta({ description: 'The declared size: a larger object is refused by storage or when used' })),
    expires_at: timestamp.check(z.meta({ description: 'Send the file before this (an hour); name the upload id within it too' })),
  })
  .register(z.globalRegistry, { id: 'Upload', description: 'A one-time, one-hour form to send one file straight to storage' });
