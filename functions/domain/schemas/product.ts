/** Product inputs as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { withoutControlCharacters } from './common';
import { failure, link, recordId, timestamp } from './envelope';
import { linkedFileUrl, uploadIdField } from './upload';

const name = z
  .string({ error: 'must be a string' })
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(200, 'must be at most 200 characters'),
    withoutControlCharacters('line'),
  );
const description = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.maxLength(2000, 'must be at most 2000 characters'), withoutControlCharacters('text'));

export const createProductInput = z.strictObject({
  name,
  description: z.optional(description),
  /** A direct upload (POST /uploads, purpose demo_video) instead of the multipart `demo_video` part. */
  demo_video_upload_id: z.optional(uploadIdField),
  /** A public https link to the demo video, fetched when the product is created. */
  demo_video_url: z.optional(linkedFileUrl),
});

/** POST /products/sample takes no fields: its name, description and demo are the sample's (domain/sample-product). */
export const createSampleProductInput = z.strictObject({});

export const updateProductInput = z
  .strictObject({
    name: z.optional(name),
    /** `null` clears the description. */
    description: z.optional(z.nullable(description)),
  })
  .check(
    z.refine((v) => v.name !== undefined || v.description !== undefined, {
      message: 'send at least one of name, description',
    }),
  );

/** How a product is shown (productView in functions/domain/product.ts answers this shape). */
const demoVideoResponse = z
  .object({
    status: z.enum(['processing', 'ready', 'failed']),
    url: z.nullable(link),
    url_expires_at: z.nullable(timestamp),
    duration_s: z.nullable(z.number()),
    width: z.nullable(z.int()),
    height: z.nullable(z.int()),
    error: z.nullable(failure),
  })
  .register(z.globalRegistry, { id: 'DemoVideo', description: 'The demo clip: `processing` until normalised, then `ready` (with a playable url) or `failed`' });

export const productResponse = z
  .object({
    id: recordId,
    name: z.string(),
    description: z.nullable(z.string()),
    demo_video: z.nullable(demoVideoResponse),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'Product' });
