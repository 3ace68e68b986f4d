/**
 * Finalize: record the video, mark the job done and charge its unit (auto jobs; a preview was charged
 * when it became ready) in one write, then drop the job's working files. A failure before that write
 * leaves the unit reserved, so MarkFailed gives it back: no job ends failed and charged.
 */
import { jobObjectPrefix } from '#domain/jobs';
import { VIDEO_FRAME } from '#domain/video';
import type { Ports } from '#ports/ports';
import { activeJob, enterStep } from '#pipeline/job-context';
import { PipelineError } from '#pipeline/errors';
import type { StepPayload } from '#pipeline/steps';
import { settlementOnFinish } from './charges';
import type { Metrics } from '#ports/metrics';
import { metricsOf } from '#use-cases/metrics-of';
import { raiseEvent } from '#use-cases/webhook-events';
import { recordJobDuration } from '#use-cases/job-duration-estimate';

export async function finalize(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'ledger' | 'blobs' | 'now' | 'jobDurations'> & { metrics?: Metrics }): Promise<void> {
  let job = await activeJob(deps, payload);
  if (!job) return;
  job = await enterStep(deps, job, 'finalize', 'finalizing');
  const output = job.output;
  if (!output) throw new PipelineError('internal_error', `Job ${job.id} reached Finalize without a composed video`);
  const settlement = await settlementOnFinish(deps, job);
  const now = deps.now();
  const finished = await deps.jobs.finishWithVideo(
    job,
    {
      id: output.video_id,
      account_id: job.account_id,
      job_id: job.id,
      product_id: job.product_id,
      key: output.key,
      poster_key: output.poster_key,
      duration_s: output.duration_s,
      width: VIDEO_FRAME.width,
      height: VIDEO_FRAME.height,
      size_bytes: output.size_bytes,
      ...(output.file_expires_at ? { retention_days: output.retention_days, file_expires_at: output.file_expires_at } : {}),
      hook_text: job.hook_text ?? null,
      created_at: now.toISOString(),
    },
    settlement,
    now,
    raiseEvent('video.job.done', job.account_id, { kind: 'job', id: job.id }, now),
  );
  if (!finished) throw new PipelineError('internal_error', `Job ${job.id} could not be marked done`);
  await recordJobDuration(deps, job, 'done', now);
  // Told once: a re-run after this point finds the job done and returns above.
  metricsOf(deps).record({ name: 'JobsDone' });
  metricsOf(deps).record({ name: 'UnitsCharged', units: settlement.chargedUnits });
  // The saved-reaction copies live apart; these are the job's own intermediates.
  await deps.blobs.deletePrefix(jobObjectPrefix(job.account_id, job.id));
}
