/**
 * A preview decision is recorded on the job, then handed to the waiting execution through its task
 * token (use-cases/hand-over-decision.ts). When the hand-over and its undo both fail, the job shows
 * the decision (processing) while the execution still waits at AwaitDecision, until its preview
 * deadline days later. The record keeps the decision and its token until a step of the resumed
 * execution starts (job-context.ts enterStep), so whoever finds one still there after a grace period
 * hands it over again: sending is safe to repeat, a token already used answers TaskTokenInvalid.
 */
import type { StoredJob } from '#domain/job-execution';
import type { Dependencies } from '#ports/dependencies';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';
import { IN_FLIGHT } from './job-context';

/** A healthy execution starts its next step within seconds of the decision. */
export const HANDOVER_GRACE_MS = 5 * 60 * 1000;

export type RedeliveryOutcome = 'redelivered' | 'cleared' | 'none';

/** Hands `job`'s recorded decision over again when it was recorded before `cutoff` and no step has started since. */
export async function redeliverStuckDecision(deps: Pick<Dependencies, 'jobs'>, runner: JobRunner, job: StoredJob, cutoff: Date): Promise<RedeliveryOutcome> {
  const handed = job.handed_decision;
  if (!handed || Date.parse(handed.at) > cutoff.getTime()) return 'none';
  try {
    await runner.sendDecision(handed.token, handed.decision);
    return 'redelivered';
  } catch (error) {
    if (!(error instanceof TaskTokenInvalid)) throw error;
    // The wait is over (the decision got there, or the preview expired and the machine fails the job): nothing to hand over.
    await deps.jobs.update(job.account_id, job.id, { handed_decision: null }, { statusIn: IN_FLIGHT });
    return 'cleared';
  }
}
