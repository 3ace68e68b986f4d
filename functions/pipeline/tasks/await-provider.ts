/**
 * AwaitProvider (waitForTaskToken): a round generating on a hosted engine by callback parks here with
 * no Lambda running. The token is kept on the job's provider wait, where the provider's webhook finds
 * it (use-cases/provider-callback.ts) and sends it back; GenerateReaction then reattaches to the kept
 * requests. A webhook that came while no token was kept was answered 409 and is delivered again.
 */
import type { Ports } from '#ports/ports';
import { activeJob, saveProgress } from '#pipeline/job-context';
import { PipelineError } from '#pipeline/errors';
import { STATE_OF_STEP, type StepPayload } from '#pipeline/steps';

export async function awaitProvider(payload: StepPayload, deps: Pick<Ports, 'jobs'>): Promise<void> {
  if (!payload.task_token) throw new PipelineError('internal_error', 'await_provider needs a task token');
  const job = await activeJob(deps, payload);
  if (!job) return;
  const wait = job.provider_wait;
  if (!wait || wait.round !== job.regenerations) {
    throw new PipelineError('internal_error', `Job ${job.id} waits for its provider but has no provider wait for round ${job.regenerations}`);
  }
  await saveProgress(deps, job, { provider_wait: { ...wait, token: payload.task_token }, resume_at: STATE_OF_STEP.await_provider });
}
