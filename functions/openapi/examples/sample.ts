/**
 * The pieces every example is made of: one fictional account's records at one moment, so the examples
 * of different operations name the same product, job and video. `sample(schema, value)` ties a value
 * to the schema it shows, and tsc checks it is of that schema's type (the document test validates it).
 */
import type * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';

export interface Sample {
  schema: ZodMiniType;
  value: unknown;
}

/** An answer's example: of the schema's output type. */
export const sample = <S extends ZodMiniType>(schema: S, value: z.output<S>): Sample => ({ schema, value });

export const CREATED_AT = '2026-11-25T12:00:00.000Z';
export const UPDATED_AT = '2026-11-25T12:01:42.000Z';
/** When the links signed at UPDATED_AT stop working. */
export const LINKS_EXPIRE_AT = '2026-11-25T13:01:42.000Z';

/** A presigned storage link as the answers carry them. */
export const signedLink = (key: string) =>
  `https://media.reaction-studio.example/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=4f1c9a0e7b2d`;

export const IDS = { product: 12, avatar: 31, job: 481, video: 95, reaction: 7, post: 52, batch: 9, key: 4, user: 1, account: 1 } as const;
export const UPLOAD_ID = '3f2b8c1e-7a4d-4e9b-9c0f-2d6a5b8e1f34';
export const WEBHOOK_ID = 'wh_8c2f1a9e4b7d3c6e0f12';
export const EVENT_ID = 'evt_019a7c2e5f40b3e91d2c4a6f8e0b1d3c';
export const DELIVERY_ID = 'whd_019a7c2e5f41a8c3e5f7b9d1';
