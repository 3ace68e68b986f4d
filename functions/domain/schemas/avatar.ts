import * as z from 'zod/mini';
import { withoutControlCharacters } from './common';

/** A prompt must describe someone: words, not only emoji or punctuation, and not an essay. */
export const avatarPrompt = z
  .string({ error: 'must be a string' })
  .check(
    z.trim(),
    z.minLength(3, 'must be at least 3 characters'),
    z.maxLength(1000, 'must be at most 1000 characters'),
    z.refine((text) => (text.match(/\p{L}/gu)?.length ?? 0) >= 3, 'must describe the person in words, not only emoji or symbols'),
    withoutControlCharacters('text'),
  );

export const createAvatarFromPrompt = z.strictObject({ prompt: avatarPrompt });
/** The multipart form: the image arrives as a file part, so no text field is allowed beside it. */
export const createAvatarFromUpload = z.strictObject({});
