/**
 * Generates a prompt avatar in the background when the configured engine is hosted (it can take
 * longer than a request may), then records the result on the avatar. The portrait must show a face,
 * as an uploaded image must (create-avatar.ts): one without fails the avatar, saying so, instead of
 * becoming a ready avatar whose every reaction would be a still.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avatarImageKey } from '#domain/avatar';
import type { PartOf, Ports } from '#ports/ports';
import { isEngineError } from '#ports/engine';
import { logOf, type UseCaseLog } from './log';
import { raiseEvent } from './webhook-events';
import { engineRequestOf } from '#domain/test-mode';

export type GenerateAvatarDeps = Pick<Ports, 'avatars' | 'blobs' | 'now'> & PartOf<'engines', 'avatar'> & PartOf<'faces', 'faceInImage'> & { log?: UseCaseLog };

/** A portrait that shows no face: the avatar fails with the code an upload without one is refused with (#domain/faces). */
class NoFaceInPortrait extends Error {
  readonly code = 'no_face';
  constructor() {
    super('We could not find a face in the generated portrait. Try again, or describe one person facing the camera');
  }
}

export async function generateAvatar(deps: GenerateAvatarDeps, task: { accountId: number; avatarId: number }): Promise<void> {
  const { accountId, avatarId } = task;
  const avatar = await deps.avatars.get(accountId, avatarId);
  if (!avatar || avatar.status !== 'processing' || !avatar.prompt) return;
  const outputKey = avatarImageKey(accountId, avatarId, 'png');
  try {
    const engine = await deps.engines.avatar(engineRequestOf(accountId));
    const made = await engine.avatarFromPrompt(avatar.prompt, { seed: avatar.seed ?? 0, outputKey });
    // Looked for in the image as stored, as an upload's is; the landmarks found are the local renderer's rig.
    const face = await deps.faces.faceInImage(await storedImage(deps, made.image.key));
    if (!face) throw new NoFaceInPortrait();
    const kept = await deps.avatars.settle(
      accountId,
      avatarId,
      { status: 'ready', image_key: made.image.key, width: made.width, height: made.height, engine: made.engine, seed: made.seed, error: null, rig: made.rig ?? face },
      deps.now(),
      raiseEvent('avatar.ready', accountId, { kind: 'avatar', id: avatarId }, deps.now()),
    );
    // Deleted meanwhile: what we made belongs to nobody.
    if (!kept) await deps.blobs.deleteKeys([made.image.key]);
  } catch (error) {
    logOf(deps).error('avatar generation failed', { error, avatarId });
    const failure = isEngineError(error) || error instanceof NoFaceInPortrait
      ? { code: error.code, message: error.message }
      : { code: 'engine_failure', message: 'The avatar could not be generated; try again or change the prompt' };
    await deps.avatars
      .settle(
        accountId,
        avatarId,
        { status: 'failed', image_key: null, width: null, height: null, engine: avatar.engine, seed: avatar.seed, error: failure },
        deps.now(),
        raiseEvent('avatar.failed', accountId, { kind: 'avatar', id: avatarId }, deps.now()),
      )
      .catch(() => undefined);
    await deps.blobs.deleteKeys([outputKey]).catch(() => undefined);
  }
}

async function storedImage(deps: Pick<Ports, 'blobs'>, key: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-avatar-'));
  try {
    const path = join(dir, 'image');
    await deps.blobs.getToFile(key, path);
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
