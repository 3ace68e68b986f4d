/** POST /captions/preview (docs/decisions.md, Captions): a caption drawn as the video will draw it. */
import * as z from 'zod/mini';
import { HOOK_POSITIONS, HOOK_SIZES, HOOK_STYLES, JOB_LIMITS } from '#domain/jobs';
import { idField, oneOf, trimmedText } from './common';

export const captionPreviewInput = z.strictObject({
  text: trimmedText('text', JOB_LIMITS.hookTextMaxChars).check(z.meta({ description: "The caption, as a job's `hook_text`" })),
  position: z.optional(oneOf(HOOK_POSITIONS).check(z.meta({ description: "The third it sits in, as a job's `hook_position` (default `top`)" }))),
  size: z.optional(oneOf(HOOK_SIZES).check(z.meta({ description: "As a job's `hook_size` (default `medium`)" }))),
  style: z.optional(oneOf(HOOK_STYLES).check(z.meta({ description: "As a job's `hook_style` (default `outline`)" }))),
  /** A job of the caller's: the caption keeps clear of that job's reaction's face, as its video will. */
  job_id: z.optional(idField.check(z.meta({ description: "A job whose reaction's face the caption keeps clear of, as that job's video will; without it, a typical avatar's face" }))),
});
export type CaptionPreviewInput = z.infer<typeof captionPreviewInput>;
