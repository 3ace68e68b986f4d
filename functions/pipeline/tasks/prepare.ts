/** Start: queued → processing, once the inputs are known to exist. */
import type { Ports } from '#ports/ports';
import { activeJob, enterStep, requireInputs } from '#pipeline/job-context';
import type { StepPayload } from '#pipeline/steps';

export async function prepare(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'products' | 'avatars' | 'stockAvatars' | 'reactions'>): Promise<void> {
  const job = await activeJob(deps, payload);
  if (!job) return;
  const { reaction } = await requireInputs(deps, job);
  // A reuse job's reaction is the saved clip itself: later steps caption and join it.
  await enterStep(deps, job, 'prepare', 'preparing', reaction ? {
    reaction: { key: reaction.clip_key, duration_s: reaction.duration_s, emotion: reaction.emotion, engine: 'saved', seed: 0, face_box: reaction.face_box ?? null },
  } : {});
}
