/**
 * POST /videos (and each variant of POST /videos/batch) as the API description shows it: one shape per
 * method, told apart by `method`. The service parses the one flat shape (createVideoInput) and checks
 * the per-method rules after, so that a refusal names the field; these shapes are built from the same
 * fields and the same rules (METHOD_FIELDS), so the two cannot say different things.
 */
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { JOB_METHODS, type JobMethod } from '#domain/jobs';
import { idField } from './common';
import { meaning } from './envelope';
import { BATCH_LIMITS } from '#domain/batches';
import { METHOD_FIELDS, METHOD_SPECIFIC, createVideoInput } from './video';
import { createVideoBatchInput } from './video-batch';

/** Common fields a method refuses all the same: a reused reaction is replayed as it is, with no new voice line. */
const REFUSED_COMMON: Record<JobMethod, readonly string[]> = { prompt: [], motion: [], reuse: ['voice_line'] };

const WHAT_EACH_TAKES: Record<JobMethod, string> = {
  prompt: 'A reaction generated from `prompt` (the person: `avatar_id`, or one the engine imagines).',
  motion:
    "The avatar `avatar_id` performs a reference clip's motion: `video_source` `link` with `reference_url` (a short-video link, fetched within the request), or `upload` with `reference_video_upload_id` (a direct upload) or, in a multipart body, the `reference_video` file.",
  reuse: 'A saved reaction (`reaction_id`, POST /reactions) replayed as it is: no new voice line.',
};

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** An optional field made required: what it wraps. */
const requiredField = (field: ZodMiniType) => (field._zod.def as { innerType?: ZodMiniType }).innerType ?? field;

/** tsc sees a variant as the flat shape (which fields a method takes is checked at run time, by the rules). */
type Variant = z.ZodMiniObject<Omit<(typeof createVideoInput)['shape'], 'method'> & { method: z.ZodMiniLiteral<JobMethod> }, z.core.$strict>;

/** The fields a method takes: the common ones and its own, its required ones required, `method` its own value. */
function shapeOf(method: JobMethod): Variant {
  const { required, allowed } = METHOD_FIELDS[method];
  const refused = new Set<string>(['method', ...METHOD_SPECIFIC.filter((field) => !allowed.includes(field)), ...REFUSED_COMMON[method]]);
  const fields = Object.entries(createVideoInput.shape as Record<string, ZodMiniType>)
    .filter(([name]) => !refused.has(name))
    .map(([name, field]) => [name, required.includes(name) ? requiredField(field) : field] as const);
  const { product_id, ...rest } = Object.fromEntries(fields);
  return z.strictObject({ product_id: product_id!, method: meaning(z.literal(method), `\`${method}\`: ${WHAT_EACH_TAKES[method]}`), ...rest }) as unknown as Variant;
}

function unionOf<V extends z.ZodMiniObject>(id: string, variantId: (method: JobMethod) => string, shape: (method: JobMethod) => V, description: string) {
  const variants = JOB_METHODS.map((method) => {
    const variant = shape(method);
    z.globalRegistry.add(variant as ZodMiniType, { id: variantId(method), description: `\`method: ${method}\`. ${WHAT_EACH_TAKES[method]}` });
    return variant;
  });
  const union = z.discriminatedUnion('method', variants as unknown as [V, ...V[]]);
  z.globalRegistry.add(union as ZodMiniType, { id, description });
  return union;
}

/** POST /videos: one shape per method. */
export const createVideoRequest = unionOf(
  'VideoRequest',
  (method) => `${capitalised(method)}VideoRequest`,
  shapeOf,
  'A video job: the product, how its reaction is made (`method`, with the fields that method takes), the caption and the sound',
);

/** A variant of POST /videos/batch: the same, its `product_id` optional (the batch's; another is 400). */
const videoBatchVariant = unionOf(
  'BatchVariant',
  (method) => `${capitalised(method)}BatchVariant`,
  (method) => z.extend(shapeOf(method), { product_id: z.optional(meaning(idField, "The batch's `product_id`, if given at all (another is 400)")) }),
  "One variant of a batch: the fields of POST /videos for its method; `product_id` may be left out (it is the batch's)",
);

/** POST /videos/batch, its variants shown one shape per method. */
export const createVideoBatchRequest = z.extend(createVideoBatchInput, {
  variants: z
    .array(videoBatchVariant)
    .check(
      z.minLength(1),
      z.maxLength(BATCH_LIMITS.maxVariants),
      z.meta({ description: `1 to ${BATCH_LIMITS.maxVariants} jobs to make, each the fields of POST /videos for its method` }),
    ),
});
