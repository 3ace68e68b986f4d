/**
 * Avatars: the on-screen creators, generated from a prompt (JSON or form `prompt`) or uploaded
 * (multipart `image`). The local engine generates within the request; a hosted one in the background,
 * the avatar answering `status: processing` (202) until then.
 */
import type { Operation } from '#http/api-types';
import { readBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam } from '#http/params';
import { accepted, created, deleted, ok } from '#http/respond';
import { badRequest, notFound } from '#domain/errors';
import { createAvatarFromPrompt, createAvatarFromUpload } from '#domain/schemas/avatar';
import { avatarImageKey, avatarObjectPrefix, avatarView, type Avatar } from '#domain/avatar';
import * as avatars from '#adapters/dynamodb/avatars';
import { deleteKeys, deletePrefix, playbackUrl, putBuffer } from '#adapters/s3/blob-store';
import { newSeed } from '#adapters/engines/seeded-random';
import { AVATAR_IMAGE_RULES, prepareAvatarImage } from '#media/image-upload';
import { admitAiHelper } from './ai-helpers';
import { getAccount } from '#adapters/dynamodb/accounts';
import { planOf } from '#domain/plans';
import { engineFailureToAppError } from './engine-errors';

async function present(avatar: Avatar) {
  const image = avatar.status === 'ready' && avatar.image_key ? await playbackUrl(avatar.image_key) : undefined;
  return avatarView(avatar, image);
}

function newAvatar(accountId: number, id: number, fields: Partial<Avatar> & Pick<Avatar, 'source' | 'status'>): Avatar {
  const now = new Date().toISOString();
  return {
    id,
    account_id: accountId,
    prompt: null,
    image_key: null,
    width: null,
    height: null,
    engine: null,
    seed: null,
    error: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

const list: Operation = async (request) => {
  const all = await avatars.listAvatars(request.principal.accountId);
  return ok(await Promise.all(all.map(present)));
};

/**
 * The plan's avatar cap, refused up front when already reached so that a full account spends no
 * upload work, generation or AI-helper budget; the create's transaction enforces it under races.
 */
async function roomForAvatar(accountId: number): Promise<number> {
  const account = await getAccount(accountId);
  if (!account) throw notFound('Account');
  const cap = planOf(account.plan).avatarCap;
  if ((await avatars.countAvatars(accountId)) >= cap) throw avatars.avatarsFull(cap);
  return cap;
}

const create: Operation = async (request) => {
  const body = await readBody(request.event, {
    accept: ['json', 'form', 'multipart'],
    files: { image: { maxBytes: AVATAR_IMAGE_RULES.maxBytes, label: 'image' } },
  });
  try {
    const accountId = request.principal.accountId;
    const upload = body.files.image;
    if (upload) {
      if ('prompt' in body.fields) throw badRequest('Send either prompt (to generate) or image (to upload), not both');
      parseInput(createAvatarFromUpload, body.fields, 'avatar upload');
      const cap = await roomForAvatar(accountId);
      // Checked and re-encoded before anything is written: a refused image leaves nothing behind.
      const image = await prepareAvatarImage(upload.path);
      const id = await avatars.newAvatarId();
      const key = avatarImageKey(accountId, id, image.extension);
      await putBuffer(key, image.data, image.contentType);
      const avatar = newAvatar(accountId, id, { source: 'upload', status: 'ready', image_key: key, width: image.width, height: image.height });
      try {
        await avatars.putNewAvatar(avatar, cap);
      } catch (error) {
        await deleteKeys([key]).catch(() => undefined);
        throw error;
      }
      return created(await present(avatar));
    }

    if (body.kind === 'multipart' && !('prompt' in body.fields)) {
      throw badRequest('Send prompt (to generate an avatar) or an image file part named image (to upload one)');
    }
    const { prompt } = parseInput(createAvatarFromPrompt, body.fields, 'avatar');
    const cap = await roomForAvatar(accountId);
    await admitAiHelper(accountId);
    const id = await avatars.newAvatarId();
    const seed = newSeed();
    if (!request.deps.engines.avatarIsInline) {
      const pending = newAvatar(accountId, id, { source: 'prompt', status: 'processing', prompt, seed });
      await avatars.putNewAvatar(pending, cap);
      try {
        await request.deps.tasks.dispatch({ type: 'generate-avatar', accountId, avatarId: id });
      } catch (error) {
        await avatars.deleteAvatar(accountId, id).catch(() => undefined);
        throw error;
      }
      return accepted(await present(pending));
    }
    const engine = await request.deps.engines.inlineAvatar();
    const outputKey = avatarImageKey(accountId, id, 'png');
    let made;
    try {
      made = await engine.avatarFromPrompt(prompt, { seed, outputKey });
    } catch (error) {
      await deleteKeys([outputKey]).catch(() => undefined);
      throw engineFailureToAppError(error, 'prompt');
    }
    const avatar = newAvatar(accountId, id, {
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
    try {
      await avatars.putNewAvatar(avatar, cap);
    } catch (error) {
      await deleteKeys([made.image.key]).catch(() => undefined);
      throw error;
    }
    return created(await present(avatar));
  } finally {
    await body.cleanup();
  }
};

const get: Operation = async (request) => {
  const avatar = await avatars.getAvatar(request.principal.accountId, idParam(request));
  if (!avatar) throw notFound('Avatar');
  return ok(await present(avatar));
};

const remove: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const id = idParam(request);
  const avatar = await avatars.deleteAvatar(accountId, id);
  if (!avatar) throw notFound('Avatar');
  await deletePrefix(avatarObjectPrefix(accountId, id));
  return deleted(id);
};

export const avatarOperations = { list, create, get, remove };
