/**
 * The ledger's safety net. A unit is reserved in the same write as its job, and settled by the job's
 * own steps; what can still strand one is a job that ended without its MarkFailed finishing (an
 * execution that timed out or was stopped on AWS, a record removed by hand). Units reserved longer
 * than a job can run whose job is gone or final are released here; units of jobs still in flight are
 * left to the pipeline. A job written but never started (the process died between the write and the
 * start) is started: starting is idempotent per job. On AWS the table's stream starts such a job
 * within seconds (start-written.ts); this is the net under it.
 */
import { isFinal } from '#domain/jobs';
import type { Dependencies } from '#ports/dependencies';
import type { JobRunner } from '#ports/job-runner';
import { logger } from '#functions/logger';
import { startIfNeverStarted } from './start-written';

/** Longer than any job's generation, preview and compose Task timeouts put together. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface SweepReport {
  released: number;
  started: number;
}

export type SweepDeps = Pick<Dependencies, 'jobs' | 'ledger' | 'now'>;

/**
 * `runner` starts the jobs never started; without it only units are released (the local runner
 * resumes every active job itself).
 */
export async function sweepStrandedWork(
  { jobs, ledger, now }: SweepDeps,
  options: { runner?: JobRunner; graceMs?: number } = {},
): Promise<SweepReport> {
  const cutoff = new Date(now().getTime() - (options.graceMs ?? SWEEP_GRACE_MS));
  const report: SweepReport = { released: 0, started: 0 };
  for await (const unit of ledger.reservedBefore(cutoff)) {
    const job = await jobs.get(unit.accountId, unit.jobId);
    if (job && !isFinal(job.status)) continue;
    if ((await ledger.release(unit, now())).changed) {
      report.released++;
      logger.warn('released a stranded allowance unit', { ...unit, job_status: job?.status ?? 'missing' });
    }
  }
  if (options.runner) {
    for (const ref of await jobs.listActive()) {
      if (await startIfNeverStarted({ jobs }, options.runner, ref, cutoff)) report.started++;
    }
  }
  return report;
}
