/**
 * Generates a prompt avatar in the background when the configured engine is hosted (it can take
 * longer than a request may), then records the result on the avatar.
 */
import { avatarImageKey } from '#domain/avatar';
import type { Dependencies } from '#ports/dependencies';
import { isEngineError } from '#ports/engine';
import { logOf, type UseCaseLog } from './log';
import { raiseEvent } from './webhook-events';

export type GenerateAvatarDeps = Pick<Dependencies, 'avatars' | 'engines' | 'blobs' | 'now'> & { log?: UseCaseLog };

export async function generateAvatar(deps: GenerateAvatarDeps, task: { accountId: number; avatarId: number }): Promise<void> {
  const { accountId, avatarId } = task;
  const avatar = await deps.avatars.get(accountId, avatarId);
  if (!avatar || avatar.status !== 'processing' || !avatar.prompt) return;
  const outputKey = avatarImageKey(accountId, avatarId, 'png');
  try {
    const engine = await deps.engines.avatar();
    const made = await engine.avatarFromPrompt(avatar.prompt, { seed: avatar.seed ?? 0, outputKey });
    const kept = await deps.avatars.settle(
      accountId,
      avatarId,
      { status: 'ready', image_key: made.image.key, width: made.width, height: made.height, engine: made.engine, seed: made.seed, error: null, rig: made.rig },
      deps.now(),
      raiseEvent('avatar.ready', accountId, { kind: 'avatar', id: avatarId }, deps.now()),
    );
    // Deleted meanwhile: what we made belongs to nobody.
    if (!kept) await deps.blobs.deleteKeys([made.image.key]);
  } catch (error) {
    logOf(deps).error('avatar generation failed', { error, avatarId });
    const failure = isEngineError(error)
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
