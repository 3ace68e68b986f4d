/**
 * Creates an avatar, uploaded (checked, re-encoded and its face found before anything is written) or generated from
 * a prompt: the local engine within the request, a hosted one in the background (the avatar answers
 * `processing` until then). The plan's cap is refused up front, so a full account spends no upload
 * work, generation or AI-helper budget; the store's create enforces it under races.
 */
import { avatarImageKey, type Avatar } from '#domain/avatar';
import { notFound } from '#domain/errors';
import { noFaceInImage } from '#domain/faces';
import { limitsAt } from '#domain/account';
import { newSeed } from '#domain/seed';
import { avatarsFull } from '#ports/avatar-store';
import type { PartOf, Ports } from '#ports/ports';
import { admitAiHelper, type AiHelperDeps } from './admit-ai-helper';
import { dropObjectsIfFails } from './drop-objects';
import { engineFailureToAppError } from './engine-failure';
import { withFile, type FileSource, type UseUploadDeps } from './use-upload';
import { accountOfScope } from '#domain/test-mode';
import { engineRequestOf } from '#domain/test-mode';

export type CreateAvatarDeps = Pick<Ports, 'avatars' | 'avatarImages' | 'blobs' | 'tasks'> &
  PartOf<'faces', 'faceInImage'> &
  PartOf<'engines', 'avatarIsInline' | 'inlineAvatar'> & AiHelperDeps & UseUploadDeps;

/** `image`: a multipart part on disk or a direct upload's id. */
export type CreateAvatarInput = { accountId: number } & ({ image: FileSource } | { prompt: string });

/** `generating` is true when the avatar is still being made in the background. */
export interface CreatedAvatar {
  avatar: Avatar;
  generating: boolean;
}

export async function createAvatar(deps: CreateAvatarDeps, input: CreateAvatarInput): Promise<CreatedAvatar> {
  const cap = await roomForAvatar(deps, input.accountId);
  if ('image' in input) {
    const avatar = await withFile(deps, input.accountId, 'avatar_image', input.image, (path) => fromUpload(deps, input.accountId, path, cap));
    return { avatar, generating: false };
  }
  return fromPrompt(deps, input.accountId, input.prompt, cap);
}

async function roomForAvatar(deps: CreateAvatarDeps, accountId: number): Promise<number> {
  // A test scope's avatars count against the cap on their own, under the account's plan.
  const account = await deps.accounts.get(accountOfScope(accountId));
  if (!account) throw notFound('Account');
  const cap = limitsAt(account, deps.now()).avatarCap;
  if ((await deps.avatars.count(accountId)) >= cap) throw avatarsFull(cap);
  return cap;
}

function newAvatar(deps: CreateAvatarDeps, accountId: number, id: number, fields: Partial<Avatar> & Pick<Avatar, 'source' | 'status'>): Avatar {
  const now = deps.now().toISOString();
  return { id, account_id: accountId, prompt: null, image_key: null, width: null, height: null, engine: null, seed: null, error: null, created_at: now, updated_at: now, ...fields };
}

/** Stores the record; the image written for it goes again if the store refuses (the cap, under a race). */
async function record(deps: CreateAvatarDeps, avatar: Avatar, cap: number, imageKey: string): Promise<Avatar> {
  await dropObjectsIfFails(deps.blobs, [imageKey], () => deps.avatars.create(avatar, cap));
  return avatar;
}

async function fromUpload(deps: CreateAvatarDeps, accountId: number, imagePath: string, cap: number): Promise<Avatar> {
  const image = await deps.avatarImages.prepare(imagePath);
  // Looked for in the image as stored, so the landmarks kept with it are in its pixels.
  const face = await deps.faces.faceInImage(image.data);
  if (!face) throw noFaceInImage('image');
  const id = await deps.avatars.newAvatarId();
  const key = avatarImageKey(accountId, id, image.extension);
  await deps.blobs.putBuffer(key, image.data, image.contentType);
  const avatar = newAvatar(deps, accountId, id, { source: 'upload', status: 'ready', image_key: key, width: image.width, height: image.height, rig: face });
  return record(deps, avatar, cap, key);
}

async function fromPrompt(deps: CreateAvatarDeps, accountId: number, prompt: string, cap: number): Promise<CreatedAvatar> {
  await admitAiHelper(deps, accountId);
  const id = await deps.avatars.newAvatarId();
  const seed = newSeed();
  // A test scope's avatar is drawn offline, which answers within the request.
  if (!deps.engines.avatarIsInline && !engineRequestOf(accountId).offline) {
    const pending = newAvatar(deps, accountId, id, { source: 'prompt', status: 'processing', prompt, seed });
    await deps.avatars.create(pending, cap);
    try {
      await deps.tasks.dispatch({ type: 'generate-avatar', accountId, avatarId: id });
    } catch (error) {
      await deps.avatars.delete(accountId, id).catch(() => undefined);
      throw error;
    }
    return { avatar: pending, generating: true };
  }
  const engine = await deps.engines.inlineAvatar();
  const outputKey = avatarImageKey(accountId, id, 'png');
  let made;
  try {
    made = await engine.avatarFromPrompt(prompt, { seed, outputKey });
  } catch (error) {
    await deps.blobs.deleteKeys([outputKey]).catch(() => undefined);
    throw engineFailureToAppError(error, 'prompt');
  }
  const avatar = newAvatar(deps, accountId, id, {
    source: 'prompt',
    status: 'ready',
    prompt,
    seed: made.seed,
    engine: made.engine,
    image_key: made.image.key,
    width: made.width,
    height: made.height,
    rig: made.rig,
  });
  return { avatar: await record(deps, avatar, cap, made.image.key), generating: false };
}
