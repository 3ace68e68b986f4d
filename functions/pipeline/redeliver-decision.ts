/**
 * A preview decision is recorded on the job, then handed to the waiting execution through its task
 * token (use-cases/hand-over-decision.ts). When the hand-over and its undo both fail, the job shows
 * the decision (processing) while the execution still waits at AwaitDecision, until its preview
 * deadline days later. The record keeps the decision and its token until a step of the resumed
 * execution starts (job-context.ts enterStep), so whoever finds one still there after a grace period
 * hands it over again: sending is safe to repeat, a token already used answers TaskTokenInvalid. One
 * that cannot be handed over for DECISION_GIVE_UP_MS fails the job, so nothing waits for days.
 */
import type { StoredJob } from '#domain/job-execution';
import type { Ports } from '#ports/ports';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';
import { IN_FLIGHT } from './job-context';
import { markFailed } from './tasks/mark-failed';

/** A healthy execution starts its next step within seconds of the decision. */
export const HANDOVER_GRACE_MS = 5 * 60 * 1000;
/**
 * A decision still not handed over this long after it was recorded fails the job instead of leaving it
 * `processing` until the preview's deadline days later: its reserved units are released, and the
 * execution, whenever it wakes, finds the job ended and does nothing.
 */
export const DECISION_GIVE_UP_MS = 30 * 60 * 1000;
const UNDELIVERED = {
  code: 'internal_error',
  message: 'Your decision could not reach the video job for 30 minutes, so the job was stopped and the units it had reserved released; make the video again',
} as const;

export type RedeliveryOutcome = 'redelivered' | 'cleared' | 'failed' | 'none';

export type RedeliveryDeps = Pick<Ports, 'jobs' | 'ledger' | 'blobs' | 'now'>;

/**
 * Hands `job`'s recorded decision over again when it was recorded before `cutoff` and no step has
 * started since; one that still cannot be handed over DECISION_GIVE_UP_MS after it was recorded fails the job.
 */
export async function redeliverStuckDecision(deps: RedeliveryDeps, runner: JobRunner, job: StoredJob, cutoff: Date): Promise<RedeliveryOutcome> {
  const handed = job.handed_decision;
  if (!handed || Date.parse(handed.at) > cutoff.getTime()) return 'none';
  try {
    await runner.sendDecision(handed.token, handed.decision);
    return 'redelivered';
  } catch (error) {
    if (!(error instanceof TaskTokenInvalid)) {
      if (deps.now().getTime() - Date.parse(handed.at) < DECISION_GIVE_UP_MS) throw error;
      await markFailed({ step: 'mark_failed', account_id: job.account_id, job_id: job.id, failure: { Error: 'Job.Failed', Cause: JSON.stringify(UNDELIVERED) } }, deps);
      return 'failed';
    }
    // The wait is over (the decision got there, or the preview expired and the machine fails the job): nothing to hand over.
    await deps.jobs.update(job.account_id, job.id, { handed_decision: null }, { statusIn: IN_FLIGHT });
    return 'cleared';
  }
}
