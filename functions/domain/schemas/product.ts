/** Product inputs as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { DEMO_LENGTH, REFRAMES } from '#domain/demo-intake';
import { describedEnum, trimmedText, withoutControlCharacters } from './common';
import { createdAt, failure, link, meaning, recordId, timestamp, updatedAt, testRecord } from './envelope';
import { linkedFileUrl, uploadIdField } from './upload';

const name = trimmedText('line', 200);
const description = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.maxLength(2000, 'must be at most 2000 characters'), withoutControlCharacters('text'));

const POINT_MESSAGE = `must be a number of seconds from 0 to ${DEMO_LENGTH.maxPointS}`;

/** A point in the demo, in seconds: a JSON number, or (form and multipart fields are text) a decimal string. */
const demoPoint = (what: string) =>
  z
    .union(
      [
        z.number().check(z.gte(0, POINT_MESSAGE), z.lte(DEMO_LENGTH.maxPointS, POINT_MESSAGE)),
        z.pipe(z.string().check(z.regex(/^[0-9]{1,4}(\.[0-9]{1,20})?$/, POINT_MESSAGE)), z.transform(Number)),
      ],
      { error: POINT_MESSAGE },
    )
    .check(z.refine((s) => s <= DEMO_LENGTH.maxPointS, POINT_MESSAGE), z.meta({ description: what }));

export const createProductInput = z
  .strictObject({
    name: name.check(z.meta({ description: 'What the product is called; shown in the studio and the API, never in the video' })),
    description: z.optional(description.check(z.meta({ description: 'Free text about the product; hook ideas (POST /hooks) are written from it' }))),
    /** A direct upload (POST /uploads, purpose demo_video) instead of the multipart `demo_video` part. */
    demo_video_upload_id: z.optional(uploadIdField.check(z.meta({ description: 'A direct upload (POST /uploads, purpose demo_video) to use as the demo, instead of a multipart `demo_video`' }))),
    /** A public https link to the demo video, fetched when the product is created. */
    demo_video_url: z.optional(linkedFileUrl.check(z.meta({ description: 'A public https link to the demo video, fetched within the request (at most 20 s and 50 MB)' }))),
    reframe: z.optional(
      z.enum(REFRAMES, { error: `must be one of ${REFRAMES.join(', ')}` }).check(
        z.meta({
          description:
            'Makes a landscape or square demo portrait (1080x1920, 9:16); without it such a demo is refused (422). `blur`: the whole picture fitted to the width, over a blurred, darkened copy of itself; `crop`: the centre cut to 9:16. A vertical demo that is not 9:16 is reframed the same way',
        }),
      ),
    ),
    demo_start_s: z.optional(demoPoint('Where the kept part of the demo starts, in seconds from its beginning (default 0)')),
    demo_end_s: z.optional(
      demoPoint(`Where the kept part of the demo ends, in seconds from its beginning (default: its end); at most the demo's length, at least ${DEMO_LENGTH.minKeptS} s and at most ${DEMO_LENGTH.maxKeptS} s after demo_start_s`),
    ),
  })
  .check(
    z.refine((v) => v.demo_end_s === undefined || v.demo_end_s > (v.demo_start_s ?? 0), {
      message: 'must be greater than demo_start_s',
      path: ['demo_end_s'],
    }),
    z.refine((v) => v.demo_end_s === undefined || v.demo_end_s - (v.demo_start_s ?? 0) >= DEMO_LENGTH.minKeptS, {
      message: `must be at least ${DEMO_LENGTH.minKeptS} s after demo_start_s`,
      path: ['demo_end_s'],
    }),
    z.refine((v) => v.demo_end_s === undefined || v.demo_end_s - (v.demo_start_s ?? 0) <= DEMO_LENGTH.maxKeptS, {
      message: `must be at most ${DEMO_LENGTH.maxKeptS} s after demo_start_s (the most of a demo a product keeps)`,
      path: ['demo_end_s'],
    }),
  );

/** POST /products/sample takes no fields: its name, description and demo are the sample's (domain/sample-product). */
export const createSampleProductInput = z.strictObject({});

export const updateProductInput = z
  .strictObject({
    name: z.optional(name.check(z.meta({ description: 'The new name' }))),
    description: z.optional(z.nullable(description).check(z.meta({ description: 'The new description; `null` clears it' }))),
  })
  .check(
    z.refine((v) => v.name !== undefined || v.description !== undefined, {
      message: 'send at least one of name, description',
    }),
  );

/** How a product is shown (productView in functions/domain/product.ts answers this shape). */
const demoVideoResponse = z
  .object({
    status: describedEnum(['processing', 'ready', 'failed'], {
      processing: 'Being normalised to 1080x1920 in the background (the `product.demo.ready` or `product.demo.failed` webhook tells when it ends)',
      ready: '`url` plays it; jobs of the product may start',
      failed: '`error` says why; send the demo again as a new product',
    }),
    url: meaning(z.nullable(link), 'Once `ready`: the normalised demo (MP4), a signed link; null before'),
    url_expires_at: meaning(z.nullable(timestamp), 'When `url` stops working: GET the product again for a fresh one'),
    duration_s: z.nullable(z.number()).check(z.meta({ description: 'Seconds of the normalised demo (the kept part, when it was trimmed); null until ready' })),
    width: z.nullable(z.int()).check(z.meta({ description: '1080 once ready: every demo is normalised to 1080x1920' })),
    height: z.nullable(z.int()).check(z.meta({ description: '1920 once ready' })),
    error: z.nullable(failure).check(z.meta({ description: 'Why the demo failed, when `failed`' })),
  })
  .register(z.globalRegistry, { id: 'DemoVideo', description: 'The demo clip: `processing` until normalised, then `ready` (with a playable url) or `failed`' });

export const productResponse = z
  .object({
    id: meaning(recordId, "The product's id"),
    name: meaning(z.string(), 'What it is called'),
    description: meaning(z.nullable(z.string()), 'Free text about it (hook ideas are written from it); null: none'),
    demo_video: meaning(z.nullable(demoVideoResponse), 'Its demo clip; null when it was created without one'),
    reframe: z.nullable(z.enum(REFRAMES)).check(z.meta({ description: 'How the demo was made portrait (`blur` or `crop`), as asked when it was sent; null: not reframed' })),
    demo_start_s: z.nullable(z.number()).check(z.meta({ description: 'Where the kept part of the demo starts, as asked; null: at its beginning' })),
    demo_end_s: z.nullable(z.number()).check(z.meta({ description: 'Where the kept part of the demo ends, as asked; null: at its end' })),
    test: testRecord,
    created_at: createdAt,
    updated_at: updatedAt,
  })
  .register(z.globalRegistry, { id: 'Product', description: 'Something to make videos about: its name, and the demo clip the videos end with' });
