/**
 * MarkFailed: the error is recorded first (a re-run keeps it), then reserved units are released and
 * the job's files removed, and only then is the job final, so an interruption anywhere in between is
 * finished by the next run.
 */
import { isFinal, jobObjectPrefix } from '#domain/jobs';
import type { Ports } from '#ports/ports';
import { IN_FLIGHT } from '#pipeline/job-context';
import { jobErrorOf } from '#pipeline/errors';
import { STATE_OF_STEP, type StepPayload } from '#pipeline/steps';
import { releaseReserved } from './charges';
import type { Metrics } from '#ports/metrics';
import { metricsOf } from '#use-cases/metrics-of';
import { raiseEvent } from '#use-cases/webhook-events';

export async function markFailed(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'ledger' | 'blobs' | 'now'> & { metrics?: Metrics }): Promise<void> {
  const { jobs, blobs } = deps;
  let job = await jobs.get(payload.account_id, payload.job_id);
  if (!job || isFinal(job.status)) return;
  const error = job.error ?? jobErrorOf(payload.failure);
  job = (await jobs.update(job.account_id, job.id, { error, resume_at: STATE_OF_STEP.mark_failed, task_token: null }, { statusIn: IN_FLIGHT })) ?? job;
  const chargedUnits = await releaseReserved(deps, job);
  await blobs.deletePrefix(jobObjectPrefix(job.account_id, job.id));
  // A composed video that never got its record would be orphaned.
  if (job.output) await blobs.deleteKeys([job.output.key, job.output.poster_key]);
  const now = deps.now();
  await jobs.update(
    job.account_id,
    job.id,
    { status: 'failed', stage: 'failed', charged_units: chargedUnits, resume_at: null, output: null },
    { statusIn: IN_FLIGHT },
    now,
    raiseEvent('video.job.failed', job.account_id, { kind: 'job', id: job.id }, now),
  );
  metricsOf(deps).record({ name: 'JobsFailed', code: error.code });
  if (chargedUnits > 0) metricsOf(deps).record({ name: 'UnitsCharged', units: chargedUnits });
}
