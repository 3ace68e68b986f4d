import * as z from 'zod/mini';
import { describedEnum, withoutControlCharacters } from './common';
import { createdAt, failure, link, meaning, recordId, timestamp, updatedAt, testRecord } from './envelope';
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

export const createAvatarFromPrompt = z.strictObject({
  prompt: avatarPrompt.check(z.meta({ description: 'Who to draw, in words (3 to 1000 characters): the engine generates a portrait from it' })),
});
/** The multipart form: the image arrives as a file part, so no text field is allowed beside it. */
export const createAvatarFromUpload = z.strictObject({});
/** The image sent before with POST /uploads (purpose avatar_image). */
export const createAvatarFromUploadId = z.strictObject({
  image_upload_id: uploadIdField.check(z.meta({ description: 'A photo sent before (POST /uploads, purpose `avatar_image`): JPEG, PNG or WebP showing a face' })),
});
/** A public https link to the image, fetched when the avatar is created. */
export const createAvatarFromUrl = z.strictObject({
  image_url: linkedFileUrl.check(z.meta({ description: 'A public https link to a photo showing a face, fetched within the request' })),
});
/** A JSON or form body: a prompt to generate from, a direct upload's id or a link to the image. */
export const createAvatarInput = z.union([createAvatarFromPrompt, createAvatarFromUploadId, createAvatarFromUrl]);

/** How an avatar is shown (avatarView in functions/domain/avatar.ts answers this shape). */
export const avatarResponse = z
  .object({
    id: meaning(recordId, "The avatar's id: a job's `avatar_id`"),
    stock: z.boolean().check(
      z.meta({
        description:
          'A stock avatar every account has (listed first, not counted against the plan\'s cap, not deletable); false for the account\'s own',
      }),
    ),
    source: meaning(z.enum(['prompt', 'upload']), '`prompt`: generated from a description; `upload`: a photo sent'),
    prompt: meaning(z.nullable(z.string()), 'The description it was generated from; null for an upload'),
    status: describedEnum(['processing', 'ready', 'failed'], {
      processing: 'A hosted engine is drawing it (the `avatar.ready` or `avatar.failed` webhook tells when it ends)',
      ready: '`image_url` shows it; jobs may use it as `avatar_id`',
      failed: '`error` says why; it cannot be used',
    }),
    image_url: meaning(z.nullable(link), 'Once `ready`: the image, a signed link; null before'),
    image_url_expires_at: meaning(z.nullable(timestamp), 'When `image_url` stops working: GET the avatar again for a fresh one'),
    width: meaning(z.nullable(z.int()), "The image's width in pixels, once ready"),
    height: meaning(z.nullable(z.int()), "The image's height in pixels, once ready"),
    error: meaning(z.nullable(failure), 'Once `failed`: why; null otherwise'),
    test: testRecord,
    created_at: createdAt,
    updated_at: updatedAt,
  })
  .register(z.globalRegistry, { id: 'Avatar', description: 'A person who reacts in the videos: a stock one, or one of the account\'s, generated or uploaded' });
