/**
 * POST /videos/batch input (docs/decisions.md, Video batches): one product, 1..20 variants, each the
 * fields of POST /videos but the product (the batch's). Each variant is checked by the rules of a
 * single job, and a refusal names the variant (`variants[3]`).
 */
import * as z from 'zod/mini';
import { JOB_STATUSES } from '#domain/jobs';
import { badRequest, isAppError } from '#domain/errors';
import { BATCH_LIMITS } from '#domain/batches';
import { idField } from './common';
import { createdAt, meaning, recordId } from './envelope';
import { jobResponse } from './job';
import { createVideoInput, videoRequestOf, type CreateVideoInput, type VideoRequest } from './video';

/** A variant may repeat the batch's product_id (a client building variants from single requests); another one is refused. */
const videoVariantInput = z.extend(z.omit(createVideoInput, { product_id: true }), { product_id: z.optional(idField) });

export const createVideoBatchInput = z.strictObject({
  product_id: meaning(idField, 'The product every variant is for'),
  variants: z
    .array(videoVariantInput, { error: 'must be a list of variants' })
    .check(
      z.minLength(1, `must hold 1 to ${BATCH_LIMITS.maxVariants} variants`),
      z.maxLength(BATCH_LIMITS.maxVariants, `must hold 1 to ${BATCH_LIMITS.maxVariants} variants`),
      z.meta({ description: `1 to ${BATCH_LIMITS.maxVariants} jobs to make, each the fields of POST /videos for its method` }),
    ),
});
export type CreateVideoBatchInput = z.infer<typeof createVideoBatchInput>;

/** One variant as understood, and the direct upload of its reference clip if it names one. */
export interface VideoVariant {
  request: VideoRequest;
  referenceUploadId: string | null;
}

/** Every variant's rules, then what only a batch can get wrong: another product, one upload named twice. */
export function videoVariantsOf(input: CreateVideoBatchInput): VideoVariant[] {
  const uploads = new Map<string, number>();
  return input.variants.map((variant, i) => {
    const field = `variants[${i}]`;
    if (variant.product_id !== undefined && variant.product_id !== input.product_id) {
      throw badRequest(`Invalid batch request: ${field}.product_id must be the batch's product_id (${input.product_id}); one batch is for one product`);
    }
    const uploadId = variant.reference_video_upload_id ?? null;
    if (uploadId !== null) {
      const earlier = uploads.get(uploadId);
      if (earlier !== undefined) {
        throw badRequest(`Invalid batch request: ${field}.reference_video_upload_id is also variants[${earlier}]'s; an upload is used once`);
      }
      uploads.set(uploadId, i);
    }
    return { request: variantRequestOf({ ...variant, product_id: input.product_id }, field), referenceUploadId: uploadId };
  });
}

function variantRequestOf(variant: CreateVideoInput, field: string): VideoRequest {
  try {
    return videoRequestOf(variant, false, `batch request: ${field}`);
  } catch (error) {
    // A refused reference link names only its field; in a batch it names the variant too.
    if (isAppError(error) && !error.message.startsWith('Invalid ')) throw badRequest(`Invalid batch request: ${field}.${error.message}`);
    throw error;
  }
}

const count = z.int().check(z.nonnegative(), z.meta({ description: 'Jobs at this status' }));

/** GET /videos/batches/{id} and the 202 of POST /videos/batch (batchView in functions/domain/batches.ts answers this shape). */
export const videoBatchResponse = z
  .object({
    id: meaning(recordId, "The batch's id"),
    product_id: meaning(recordId, 'The product its jobs are for'),
    created_at: createdAt,
    jobs: z.array(jobResponse).check(z.meta({ description: "The variants' jobs, in variant order, as GET /videos/jobs/{id} shows each" })),
    counts: z
      .object(Object.fromEntries(JOB_STATUSES.map((status) => [status, count])) as Record<(typeof JOB_STATUSES)[number], typeof count>)
      .check(z.meta({ description: 'How many of the jobs are at each status now' })),
  })
  .register(z.globalRegistry, { id: 'VideoBatch', description: 'Jobs of one product made in one request (POST /videos/batch), in variant order' });
