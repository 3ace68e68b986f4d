/**
 * The ledger's safety net. A unit is reserved in the same write as its job, and settled by the job's
 * own steps; what can still strand one is a job that ended without its MarkFailed finishing (an
 * execution that timed out or was stopped on AWS, a record removed by hand). Units reserved longer
 * than a job can run whose job is gone or final are released here; units of jobs still in flight are
 * left to the pipeline. A job written but never started (the process died between the write and the
 * start) is started: starting is idempotent per job. On AWS the table's stream starts such a job
 * within seconds (start-written.ts); this is the net under it. A preview decision recorded but never
 * received by its execution is handed over again (redeliver-decision.ts).
 */
import { isFinal } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { Dependencies } from '#ports/dependencies';
import type { JobRunner } from '#ports/job-runner';
import { logger } from '#functions/logger';
import { HANDOVER_GRACE_MS, redeliverStuckDecision, type RedeliveryDeps, type RedeliveryOutcome } from './redeliver-decision';
import { startJobIfNeverStarted } from './start-written';

/** Longer than any job's generation, preview and compose Task timeouts put together. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface SweepReport {
  released: number;
  started: number;
  /** Preview decisions handed to their executions again (redeliver-decision.ts). */
  redelivered: number;
  /** Jobs failed because their decision could not be handed over for DECISION_GIVE_UP_MS. */
  failed_decisions: number;
}

export type SweepDeps = Pick<Dependencies, 'jobs' | 'ledger' | 'blobs' | 'now'>;

/**
 * `runner` starts the jobs never started; without it only units are released (the local runner
 * resumes every active job itself).
 */
export async function sweepStrandedWork(
  deps: SweepDeps,
  options: { runner?: JobRunner; graceMs?: number } = {},
): Promise<SweepReport> {
  const { jobs, ledger, now } = deps;
  const cutoff = new Date(now().getTime() - (options.graceMs ?? SWEEP_GRACE_MS));
  const report: SweepReport = { released: 0, started: 0, redelivered: 0, failed_decisions: 0 };
  for await (const unit of ledger.reservedBefore(cutoff)) {
    const job = await jobs.get(unit.accountId, unit.jobId);
    if (job && !isFinal(job.status)) continue;
    if ((await ledger.release(unit, now())).changed) {
      report.released++;
      logger.warn('released a stranded allowance unit', { ...unit, job_status: job?.status ?? 'missing' });
    }
  }
  if (options.runner) {
    const handedBefore = new Date(now().getTime() - HANDOVER_GRACE_MS);
    for (const ref of await jobs.listActive()) {
      const job = await jobs.get(ref.accountId, ref.jobId);
      if (!job) continue;
      if (await startJobIfNeverStarted(options.runner, job, cutoff)) report.started++;
      const outcome = await redeliverOrLog(deps, options.runner, job, handedBefore);
      if (outcome === 'redelivered') report.redelivered++;
      if (outcome === 'failed') report.failed_decisions++;
    }
  }
  return report;
}

/** One job's failed redelivery (the runner still unreachable) waits for the next sweep; the others go on. */
async function redeliverOrLog(deps: RedeliveryDeps, runner: JobRunner, job: StoredJob, handedBefore: Date): Promise<RedeliveryOutcome> {
  try {
    const outcome = await redeliverStuckDecision(deps, runner, job, handedBefore);
    if (outcome !== 'none') logger.warn('a preview decision that had not reached its execution', { account_id: job.account_id, job_id: job.id, outcome });
    return outcome;
  } catch (error) {
    logger.error('handing a preview decision over again failed', { account_id: job.account_id, job_id: job.id, error: String(error) });
    return 'none';
  }
}
