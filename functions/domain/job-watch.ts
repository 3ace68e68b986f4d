/**
 * What the sweeper has to watch a job in flight for (pipeline/sweeper.ts), kept by the job store
 * beside the job so the sweeper reads only the jobs that may need it, not every job in flight: a
 * preview may wait 30 days at preview_ready, and no sweep could read all of those every few minutes.
 *
 * - `unstarted`, since the job was written: it may never have been started (the process died between
 *   its write and its start). Ends when a step of its execution starts.
 * - `handover`, since a decision was recorded: the decision may not have reached the waiting
 *   execution. Ends when a step of the resumed execution starts.
 * - `quiet`: in flight and moving on its own, or waiting at preview_ready; nothing to watch.
 *
 * A job the sweeper looked at and found needing nothing is made quiet by the sweeper (the store's
 * `quiet`), unless the job changed meanwhile.
 */
import { isFinal } from './jobs';
import type { StoredJob } from './job-execution';

export type JobWatch = { kind: 'unstarted' | 'handover'; since: string } | { kind: 'quiet' };

type WatchedFields = Pick<StoredJob, 'status' | 'created_at' | 'handed_decision'>;

/** The watch of a whole job as written (created, or put back by restore); null once it is final. */
export function watchOf(job: WatchedFields): JobWatch | null {
  if (isFinal(job.status)) return null;
  if (job.handed_decision) return { kind: 'handover', since: job.handed_decision.at };
  if (job.status === 'queued') return { kind: 'unstarted', since: job.created_at };
  return { kind: 'quiet' };
}

/**
 * The watch after an update that makes `changes`: null when the job ends, undefined when the update
 * leaves the watch as it was (progress, stage, output: most of a job's writes).
 */
export function watchAfter(changes: Partial<Pick<StoredJob, 'status' | 'handed_decision'>>): JobWatch | null | undefined {
  if (changes.status && isFinal(changes.status)) return null;
  if (changes.handed_decision) return { kind: 'handover', since: changes.handed_decision.at };
  // A step started (processing, handed_decision cleared), or the job shows its preview.
  if (changes.handed_decision === null || changes.status === 'processing' || changes.status === 'preview_ready') return { kind: 'quiet' };
  return undefined;
}
