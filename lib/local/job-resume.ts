/**
 * Where a job re-enters the machine after this process died: at the state recorded on the job
 * (`resume_at`, written by each step as it starts), with what that state needs to run again. A
 * preview parked at AwaitDecision keeps its recorded expiry; a job caught while failing finishes
 * failing; a recorded state the machine no longer has fails the job rather than guessing.
 */
import { FINAL_ERROR, STATE_OF_STEP, type JobExecutionInput, type TaskFailure } from '#pipeline/steps';
import type { TaskInfo } from './local-definition';

/** The fields of a job record the runner reads. */
export interface RecordedJob {
  status: string;
  mode: JobExecutionInput['job']['mode'];
  method: JobExecutionInput['job']['method'];
  resume_at?: string | null;
  preview_expires_at?: string | null;
  /** The job's age in the render queue; without it, the order the runner started jobs in. */
  created_at?: string;
  queue_position?: number | null;
}

/** The execution input, with the failure a job entered at MarkFailed hands mark_failed. */
type ResumeInput = JobExecutionInput & { failure?: TaskFailure };

/** The failure handed to mark_failed when a job is re-entered at MarkFailed after a restart. */
export const INTERRUPTED_FAILURE: TaskFailure = {
  Error: FINAL_ERROR,
  Cause: JSON.stringify({ code: 'internal_error', message: 'The job was interrupted while failing' }),
};

const NOT_RESUMABLE: TaskFailure = {
  Error: FINAL_ERROR,
  Cause: JSON.stringify({ code: 'internal_error', message: 'The job could not be resumed after a restart' }),
};

export interface ResumePlan {
  input: ResumeInput;
  startAt: string;
  /** A preview's recorded expiry: its first wait for a decision ends there, not a full wait later. */
  firstWaitDeadline?: number;
  /** The record's creation time: after a restart the job is still ahead of newer jobs for render slots. */
  createdAt?: string;
}

/** Jobs in these states have nothing left to run. */
export const hasEnded = (job: RecordedJob): boolean => job.status === 'done' || job.status === 'failed';

/**
 * How the job with this record re-enters the machine (`machineStart`: the machine's StartAt, for a
 * job that recorded no state yet; `tasks`: the Task states the machine has).
 */
export function resumePlan(
  accountId: number,
  jobId: number,
  job: RecordedJob,
  machine: { startAt: string; tasks: Record<string, TaskInfo> },
  log: (line: string) => void,
): ResumePlan {
  const input: ResumeInput = { account_id: accountId, job_id: jobId, job: { mode: job.mode, method: job.method } };
  let startAt = job.resume_at ?? machine.startAt;
  if (!machine.tasks[startAt]) {
    log(`job ${jobId} (account ${accountId}): recorded state ${startAt} is not a Task of the machine; failing it`);
    startAt = STATE_OF_STEP.mark_failed;
    input.failure = NOT_RESUMABLE;
  } else if (startAt === STATE_OF_STEP.mark_failed) {
    input.failure = INTERRUPTED_FAILURE;
  }
  const expires = startAt === STATE_OF_STEP.await_decision && job.preview_expires_at ? Date.parse(job.preview_expires_at) : NaN;
  return { input, startAt, firstWaitDeadline: Number.isNaN(expires) ? undefined : expires, createdAt: job.created_at };
}
