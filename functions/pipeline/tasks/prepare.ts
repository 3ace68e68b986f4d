/** Start: queued → processing, once the inputs are known to exist. */
import { activeJob, enterStep, requireInputs } from '#pipeline/job-context';
import type { StepPayload } from '#pipeline/steps';

export async function prepare(payload: StepPayload): Promise<void> {
  const job = await activeJob(payload);
  if (!job) return;
  const { reaction } = await requireInputs(job);
  // A reuse job's reaction is the saved clip itself: later steps caption and join it.
  await enterStep(job, 'prepare', 'preparing', reaction ? {
    reaction: { key: reaction.clip_key, duration_s: reaction.duration_s, emotion: reaction.emotion, engine: 'saved', seed: 0 },
  } : {});
}
