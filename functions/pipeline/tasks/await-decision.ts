/**
 * AwaitDecision (waitForTaskToken): the job shows preview_ready and keeps the token approve and
 * regenerate send back. The deadline it shows is the job's one preview deadline (fixed by
 * ChargePreview at the first preview); re-entered after a local restart with a new token, it keeps it.
 */
import { JOB_STAGES } from '#domain/jobs';
import type { Ports } from '#ports/ports';
import { activeJob, saveProgress } from '#pipeline/job-context';
import { PipelineError } from '#pipeline/errors';
import { STATE_OF_STEP, type StepPayload } from '#pipeline/steps';
import { raiseEvent } from '#use-cases/webhook-events';
import { recordJobDuration } from '#use-cases/job-duration-estimate';

export async function awaitDecision(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'now' | 'previewWaitS' | 'jobDurations'>): Promise<{ expires_at: string } | undefined> {
  if (!payload.task_token) throw new PipelineError('internal_error', 'await_decision needs a task token');
  const job = await activeJob(deps, payload);
  if (!job) return undefined;
  const expiresAt =
    job.preview_deadline ??
    (job.status === 'preview_ready' && job.preview_expires_at
      ? job.preview_expires_at
      : new Date(deps.now().getTime() + deps.previewWaitS * 1000).toISOString());
  const changes = {
    status: 'preview_ready',
    stage: 'awaiting_approval',
    progress: Math.max(job.progress, JOB_STAGES.awaiting_approval),
    task_token: payload.task_token,
    preview_expires_at: expiresAt,
    resume_at: STATE_OF_STEP.await_decision,
  } as const;
  // Re-entered after a restart, the job shows its preview already: only a new preview raises the event.
  if (job.status === 'preview_ready') await saveProgress(deps, job, changes);
  else {
    const now = deps.now();
    const event = raiseEvent('video.job.preview_ready', job.account_id, { kind: 'job', id: job.id }, now);
    if (!(await deps.jobs.update(job.account_id, job.id, changes, { statusIn: ['queued', 'processing'] }, now, event))) {
      throw new PipelineError('internal_error', `Job ${job.id} moved while its preview was being shown`);
    }
    await recordJobDuration(deps, job, 'preview_ready', now);
  }
  return { expires_at: expiresAt };
}
