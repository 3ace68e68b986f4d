/**
 * Avatars: the on-screen creators, generated from a prompt (JSON or form `prompt`) or uploaded
 * (multipart `image`). The local engine generates within the request; a hosted one in the background,
 * the avatar answering `status: processing` (202) until then. The stock avatars every account has
 * are listed first and read like the account's own (use-cases/find-avatar.ts).
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam } from '#http/params';
import { accepted, created, deleted, ok } from '#http/respond';
import { badRequest } from '#domain/errors';
import { createAvatarFromPrompt, createAvatarFromUpload, createAvatarFromUploadId, createAvatarFromUrl } from '#domain/schemas/avatar';
import { logger } from '#functions/logger';
import type { Avatar } from '#domain/avatar';
import { presentAvatar } from '#use-cases/present-records';
import { createAvatar, type CreateAvatarInput } from '#use-cases/create-avatar';
import { removeAvatar } from '#use-cases/remove-avatar';
import { getAvatar, listAvatars } from '#use-cases/find-avatar';
import { answeredOnce } from './answered-once';

type Reads = NeedsOf<typeof getAvatar> & Pick<Ports, 'blobs'>;

const present = (request: AuthenticatedRequest<Pick<Ports, 'blobs'>>, avatar: Avatar) => presentAvatar(request.deps.blobs, avatar);

const list: Operation<Reads> = async (request) => {
  const all = await listAvatars(request.deps, request.principal.accountId);
  return ok(await Promise.all(all.map((avatar) => present(request, avatar))));
};

const create: Operation<NeedsOf<typeof createAvatar> & Reads> = async (request) => {
  const body = await readRouteBody(request);
  try {
    const accountId = request.principal.accountId;
    const upload = body.files.image;
    let input: CreateAvatarInput;
    if (upload) {
      if ('prompt' in body.fields) throw badRequest('Send either prompt (to generate) or image (to upload), not both');
      parseInput(createAvatarFromUpload, body.fields, 'avatar upload');
      input = { accountId, image: { path: upload.path } };
    } else if ('image_upload_id' in body.fields) {
      if ('prompt' in body.fields) throw badRequest('Send either prompt (to generate) or image_upload_id (to upload), not both');
      input = { accountId, image: { uploadId: parseInput(createAvatarFromUploadId, body.fields, 'avatar upload').image_upload_id } };
    } else if ('image_url' in body.fields) {
      if ('prompt' in body.fields) throw badRequest('Send either prompt (to generate) or image_url (to upload), not both');
      input = { accountId, image: { url: parseInput(createAvatarFromUrl, body.fields, 'avatar upload').image_url } };
    } else {
      if (body.kind === 'multipart' && !('prompt' in body.fields)) {
        throw badRequest('Send prompt (to generate an avatar), or an image file part named image, image_upload_id or image_url (to upload one)');
      }
      input = { accountId, prompt: parseInput(createAvatarFromPrompt, body.fields, 'avatar').prompt };
    }
    const { avatar, generating } = await createAvatar({ ...request.deps, log: logger }, input);
    return (generating ? accepted : created)(await present(request, avatar));
  } finally {
    await body.cleanup();
  }
};

const get: Operation<Reads> = async (request) => {
  return ok(await present(request, await getAvatar(request.deps, request.principal.accountId, idParam(request))));
};

const remove: Operation<NeedsOf<typeof removeAvatar>> = async (request) => {
  return deleted(await removeAvatar(request.deps, { accountId: request.principal.accountId, avatarId: idParam(request) }));
};

export const avatarOperations = { list, create: answeredOnce(create), get, remove };
