/**
 * A preview decision (approve, regenerate) is recorded on the job first, then handed to the waiting
 * execution through its task token. When the runner cannot be reached the recorded move is undone, so
 * the job is back at preview_ready with its token and the client can retry; without that the job would
 * wait, unreachable, until its preview expired.
 */
import { AppError, conflict } from '#domain/errors';
import type { JobDecision, StoredJob } from '#domain/job-execution';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';
import type { Compensation } from './compensation';

export const NOT_WAITING = 'The job is no longer at preview_ready (it was approved or regenerated meanwhile)';

export function pendingToken(job: StoredJob): string {
  // preview_ready is shown by the same write that stores the token, so a missing one is a bug.
  if (!job.task_token) throw conflict('The job is not waiting for a decision yet; retry in a moment');
  return job.task_token;
}

export async function handOver(runner: JobRunner, token: string, decision: JobDecision, undo: Compensation): Promise<void> {
  try {
    await runner.sendDecision(token, decision);
  } catch (error) {
    // The wait ended (the preview expired) between our read and now; the machine fails the job itself.
    if (error instanceof TaskTokenInvalid) throw conflict('The preview is no longer waiting for a decision (it expired); create a new job');
    const outcome = await undo.undo();
    throw new AppError(
      'upstream_unavailable',
      outcome === 'undone'
        ? 'The decision could not be handed to the job pipeline; the job is back at preview_ready and nothing was charged. Retry in a moment'
        : 'The decision could not be confirmed by the job pipeline; it is handed over again within minutes. GET the job to follow it',
      { cause: error, headers: { 'retry-after': '5' } },
    );
  }
}
