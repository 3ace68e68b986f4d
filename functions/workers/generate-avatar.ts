/**
 * Generates a prompt avatar in the background when the configured engine is hosted (it can take
 * longer than a request may), then records the result on the avatar.
 */
import type { BackgroundTask } from '#ports/background-tasks';
import type { Dependencies } from '#ports/dependencies';
import { isEngineError } from '#ports/engine';
import { getAvatar, settleAvatar } from '#adapters/dynamodb/avatars';
import { deleteKeys } from '#adapters/s3/blob-store';
import { avatarImageKey } from '#domain/avatar';
import { logger } from '#functions/logger';

export type GenerateTask = Extract<BackgroundTask, { type: 'generate-avatar' }>;

export async function generateAvatar(deps: Pick<Dependencies, 'engines'>, task: GenerateTask): Promise<void> {
  const avatar = await getAvatar(task.accountId, task.avatarId);
  if (!avatar || avatar.status !== 'processing' || !avatar.prompt) return;
  const outputKey = avatarImageKey(task.accountId, task.avatarId, 'png');
  try {
    const engine = await deps.engines.avatar();
    const made = await engine.avatarFromPrompt(avatar.prompt, { seed: avatar.seed ?? 0, outputKey });
    const kept = await settleAvatar(task.accountId, task.avatarId, {
      status: 'ready',
      image_key: made.image.key,
      width: made.width,
      height: made.height,
      engine: made.engine,
      seed: made.seed,
      error: null,
      rig: made.rig,
    });
    if (!kept) await deleteKeys([made.image.key]);
  } catch (error) {
    logger.error('avatar generation failed', { error: error as Error, avatarId: task.avatarId });
    const failure = isEngineError(error)
      ? { code: error.code, message: error.message }
      : { code: 'engine_failure', message: 'The avatar could not be generated; try again or change the prompt' };
    await settleAvatar(task.accountId, task.avatarId, {
      status: 'failed',
      image_key: null,
      width: null,
      height: null,
      engine: avatar.engine,
      seed: avatar.seed,
      error: failure,
    }).catch(() => undefined);
    await deleteKeys([outputKey]).catch(() => undefined);
  }
}
