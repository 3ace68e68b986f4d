/**
 * Where a job re-enters the machine after this process died: at the state recorded on the job
 * (`resume_at`, written by each step as it starts), with what that state needs to run again. A
 * preview parked at AwaitDecision keeps its recorded expiry; a job caught while failing finishes
 * failing; a recorded state the machine no longer has fails the job rather than guessing.
 */
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { FINAL_ERROR, STATE_OF_STEP, type JobExecutionInput, type TaskFailure } from '#pipeline/steps';
import type { TaskInfo } from './local-definition';

/** The fields of a job record the runner reads. */
export interface RecordedJob {
  status: string;
  mode: JobExecutionInput['job']['mode'];
  method: JobExecutionInput['job']['method'];
  resume_at?: string | null;
  preview_expires_at?: string | null;
  /** The job's one preview deadline (charge-preview.ts). */
  preview_deadline?: string | null;
  /** The job's age in the render queue; without it, the order the runner started jobs in. */
  created_at?: string;
  queue_position?: number | null;
}

/**
 * The execution input, with the failure a job entered at MarkFailed hands mark_failed, and the wait
 * left to a job entered at AwaitDecision (what ChargePreview put in the state before the restart).
 */
type ResumeInput = JobExecutionInput & { failure?: TaskFailure; decision_wait?: { seconds: number } };

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
  const atDecision = startAt === STATE_OF_STEP.await_decision;
  const recorded = job.preview_deadline ?? job.preview_expires_at;
  const expires = atDecision && recorded ? Date.parse(recorded) : NaN;
  const firstWaitDeadline = Number.isNaN(expires) ? undefined : expires;
  if (atDecision) {
    const seconds = firstWaitDeadline === undefined ? PREVIEW_WAIT_MAX_S : Math.max(1, Math.ceil((firstWaitDeadline - Date.now()) / 1000));
    input.decision_wait = { seconds };
  }
  return { input, startAt, firstWaitDeadline, createdAt: job.created_at };
}
