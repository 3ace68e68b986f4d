/**
 * The ledger's safety net. A unit is reserved in the same write as its job, and settled by the job's
 * own steps; what can still strand one is a job that ended without its MarkFailed finishing (an
 * execution that timed out or was stopped on AWS, a record removed by hand). Units reserved longer
 * than a job can run whose job is gone or final are released here; units of jobs still in flight are
 * left to the pipeline. A job written but never started (the process died between the write and the
 * start) is started: starting is idempotent per job. On AWS the table's stream starts such a job
 * within seconds (start-written.ts); this is the net under it. A preview decision recorded but never
 * received by its execution is handed over again (redeliver-decision.ts).
 *
 * It reads only the jobs the store watches for it (domain/job-watch.ts), not every job in flight, and
 * works within a time budget: out of time, it stops between two items, never inside one's writes,
 * and says which passes it left for the next sweep (every pass resumes where the work still is: what
 * was done leaves the sets it reads).
 */
import { isFinal } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { Ports } from '#ports/ports';
import type { JobRunner } from '#ports/job-runner';
import { logger } from '#functions/logger';
import { HANDOVER_GRACE_MS, redeliverStuckDecision, type RedeliveryDeps, type RedeliveryOutcome } from './redeliver-decision';
import { startJobIfNeverStarted } from './start-written';

/** Longer than any job's generation, preview and compose Task timeouts put together. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** What one sweep may spend: the sweeper's function runs 300 s (lib/cloud/function-sizes.ts). */
const SWEEP_BUDGET_MS = 240 * 1000;

type SweepPass = 'units' | 'jobs';

export interface SweepReport {
  released: number;
  started: number;
  /** Preview decisions handed to their executions again (redeliver-decision.ts). */
  redelivered: number;
  /** Jobs failed because their decision could not be handed over for DECISION_GIVE_UP_MS. */
  failed_decisions: number;
  /** Passes stopped by the time budget: the next sweep goes on with them. */
  left_for_next_sweep: SweepPass[];
}

export interface SweepOptions {
  /** Starts the jobs never started; without it only units are released (the local runner resumes every active job itself). */
  runner?: JobRunner;
  graceMs?: number;
  /** Milliseconds this sweep may still spend, asked before each item (Lambda's getRemainingTimeInMillis less a margin). */
  timeLeftMs?: () => number;
}

export type SweepDeps = Pick<Ports, 'jobs' | 'ledger' | 'blobs' | 'now'>;

const budgetFromNow = (budgetMs: number) => {
  const until = Date.now() + budgetMs;
  return () => until - Date.now();
};

export async function sweepStrandedWork(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepReport> {
  const { now } = deps;
  const cutoff = new Date(now().getTime() - (options.graceMs ?? SWEEP_GRACE_MS));
  const timeLeft = options.timeLeftMs ?? budgetFromNow(SWEEP_BUDGET_MS);
  const report: SweepReport = { released: 0, started: 0, redelivered: 0, failed_decisions: 0, left_for_next_sweep: [] };
  if (!(await releaseStrandedUnits(deps, cutoff, report, timeLeft))) report.left_for_next_sweep.push('units');
  if (options.runner && !(await lookAtWatchedJobs(deps, options.runner, cutoff, report, timeLeft))) report.left_for_next_sweep.push('jobs');
  return report;
}

/** False when the time ran out before the last unit. */
async function releaseStrandedUnits({ jobs, ledger, now }: SweepDeps, cutoff: Date, report: SweepReport, timeLeft: () => number): Promise<boolean> {
  for await (const unit of ledger.reservedBefore(cutoff)) {
    if (timeLeft() <= 0) return false;
    const job = await jobs.get(unit.accountId, unit.jobId);
    if (job && !isFinal(job.status)) continue;
    if ((await ledger.release(unit, now())).changed) {
      report.released++;
      logger.warn('released a stranded allowance unit', { ...unit, job_status: job?.status ?? 'missing' });
    }
  }
  return true;
}

/**
 * Starts the watched jobs never started and hands stuck decisions over again; a job that needed
 * neither leaves the watch (quiet). False when the time ran out before the last job.
 */
async function lookAtWatchedJobs(deps: SweepDeps, runner: JobRunner, cutoff: Date, report: SweepReport, timeLeft: () => number): Promise<boolean> {
  const handedBefore = new Date(deps.now().getTime() - HANDOVER_GRACE_MS);
  for await (const candidate of deps.jobs.sweepCandidates({ unstartedBefore: cutoff, handedBefore })) {
    if (timeLeft() <= 0) return false;
    const job = await deps.jobs.get(candidate.accountId, candidate.jobId);
    if (!job || isFinal(job.status)) continue;
    const started = await startJobIfNeverStarted(runner, job, cutoff);
    if (started) report.started++;
    const outcome = await redeliverOrLog(deps, runner, job, handedBefore);
    if (outcome === 'redelivered') report.redelivered++;
    if (outcome === 'failed') report.failed_decisions++;
    if (!started && outcome === 'none') await deps.jobs.quiet(candidate, job);
  }
  return true;
}

/** One job's failed redelivery (the runner still unreachable) waits for the next sweep (`retry`); the others go on. */
async function redeliverOrLog(deps: RedeliveryDeps, runner: JobRunner, job: StoredJob, handedBefore: Date): Promise<RedeliveryOutcome | 'retry'> {
  try {
    const outcome = await redeliverStuckDecision(deps, runner, job, handedBefore);
    if (outcome !== 'none') logger.warn('a preview decision that had not reached its execution', { account_id: job.account_id, job_id: job.id, outcome });
    return outcome;
  } catch (error) {
    logger.error('handing a preview decision over again failed', { account_id: job.account_id, job_id: job.id, error });
    return 'retry';
  }
}
