import * as z from 'zod/mini';
import { describedEnum, withoutControlCharacters } from './common';
import { failure, link, recordId, timestamp } from './envelope';
import { linkedFileUrl, uploadIdField } from './upload';

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
/** The image sent before with POST /uploads (purpose avatar_image). */
export const createAvatarFromUploadId = z.strictObject({ image_upload_id: uploadIdField });
/** A public https link to the image, fetched when the avatar is created. */
export const createAvatarFromUrl = z.strictObject({ image_url: linkedFileUrl });
/** A JSON or form body: a prompt to generate from, a direct upload's id or a link to the image. */
export const createAvatarInput = z.union([createAvatarFromPrompt, createAvatarFromUploadId, createAvatarFromUrl]);

/** How an avatar is shown (avatarView in functions/domain/avatar.ts answers this shape). */
export const avatarResponse = z
  .object({
    id: recordId,
    stock: z.boolean().check(
      z.meta({
        description:
          'A stock avatar every account has (listed first, not counted against the plan\'s cap, not deletable); false for the account\'s own',
      }),
    ),
    source: z.enum(['prompt', 'upload']),
    prompt: z.nullable(z.string()),
    status: describedEnum(['processing', 'ready', 'failed'], {
      processing: 'A hosted engine is drawing it (the `avatar.ready` or `avatar.failed` webhook tells when it ends)',
      ready: '`image_url` shows it; jobs may use it as `avatar_id`',
      failed: '`error` says why; it cannot be used',
    }),
    image_url: z.nullable(link),
    image_url_expires_at: z.nullable(timestamp),
    width: z.nullable(z.int()),
    height: z.nullable(z.int()),
    error: z.nullable(failure),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'Avatar' });
