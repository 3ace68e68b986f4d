/**
 * Runs video jobs through the state machine. On AWS: Step Functions (StartExecution named after the
 * job, so a repeated start is a no-op; SendTaskSuccess for preview decisions). Locally the same ASL
 * runs in process.
 */
import type { JobDecision, JobExecutionInput, ProviderReady } from '#domain/job-execution';

export interface JobRunner {
  /** Starts the job's execution; starting a job that already has one changes nothing. */
  start(input: JobExecutionInput): Promise<void>;
  /**
   * Resumes an execution waiting at AwaitDecision (a decision) or AwaitProvider (ProviderReady).
   * Throws TaskTokenInvalid when the wait is gone.
   */
  sendDecision(taskToken: string, decision: JobDecision | ProviderReady): Promise<void>;
}

/** The token no longer belongs to a waiting execution (it expired, or the job was failed meanwhile). */
export class TaskTokenInvalid extends Error {
  constructor(message = 'The job is no longer waiting for a decision') {
    super(message);
    this.name = 'TaskTokenInvalid';
  }
}
