/**
 * One job's execution of the state machine in this process: what the runner needs to know about it
 * between its Tasks (the render slot it may still hold, whether it is only parked at AwaitDecision,
 * how to stop it) and the promises others wait on (parked or ended, ended).
 */
import type { JobAge } from './render-slots';
import { runnerStopped } from './task-outcomes';

/** Executions are per job, like an execution name on AWS: one key per account and job. */
export const executionKey = (accountId: number, jobId: number): string => `${accountId}/${jobId}`;

export class Execution {
  readonly key: string;
  readonly label: string;
  /** Tie-breaker when the record has no creation time: the order jobs were started in. */
  readonly startedAt = Date.now();
  /** The job's place in the render queue, read from its record once it first has to wait. */
  age?: Promise<JobAge>;
  /**
   * The render slot of a render step that just succeeded, kept for the job's next Task: when that is
   * a render step too (Compose after GenerateReaction), the job goes on without queueing again.
   */
  heldSlot?: () => void;
  /** Aborts when the runner stops: the signal every step of this execution also listens to. */
  readonly controller = new AbortController();
  /** Rejects once the execution is stopped (one abort listener per execution, not one per Task). */
  readonly whenStopped: Promise<never>;
  /** The library's own abort, once the execution runs. */
  abortRun?: () => void;
  stopped = false;
  /** Ended by the execution's TimeoutSeconds (what AWS reports as TIMED_OUT). */
  timedOut = false;
  /** False only while parked at AwaitDecision, waiting for a decision. */
  busy = true;
  /** Resumed at AwaitDecision: the preview's recorded expiry bounds the first wait. */
  firstWaitDeadline?: number;
  /** Resolves once the execution first parks at AwaitDecision, or ends (resume waits on it). */
  readonly settled: Promise<void>;
  readonly markSettled: () => void;
  /** Resolves once the execution ended, however it ended. */
  done: Promise<void> = Promise.resolve();

  constructor(accountId: number, jobId: number, firstWaitDeadline?: number) {
    this.key = executionKey(accountId, jobId);
    this.label = `job ${jobId} (account ${accountId})`;
    this.whenStopped = new Promise<never>((_, reject) =>
      this.controller.signal.addEventListener('abort', () => reject(runnerStopped()), { once: true }),
    );
    // Nobody may be racing against it when the runner stops; that is no unhandled rejection.
    this.whenStopped.catch(() => undefined);
    this.firstWaitDeadline = firstWaitDeadline;
    let markSettled!: () => void;
    this.settled = new Promise<void>((r) => (markSettled = r));
    this.markSettled = () => markSettled();
  }

  /** The job's age from its record's creation time; without one, the order the runner started jobs in. */
  ageFrom(accountId: number, jobId: number, createdAt: string | undefined): JobAge {
    const at = createdAt === undefined ? NaN : Date.parse(createdAt);
    return { createdAtMs: Number.isNaN(at) ? this.startedAt : at, accountId, jobId };
  }

  /** The deadline of the first wait for a decision, used once: later waits get a fresh preview. */
  takeFirstWaitDeadline(): number | undefined {
    const deadline = this.firstWaitDeadline;
    this.firstWaitDeadline = undefined;
    return deadline;
  }

  /** Lets the kept render slot go: the job's next Task does not render, or the execution ended. */
  releaseHeldSlot(): void {
    const held = this.heldSlot;
    this.heldSlot = undefined;
    held?.();
  }

  /** Aborts the running step and the library's execution; the job record is left as it is. */
  stop(): void {
    this.stopped = true;
    this.controller.abort();
    this.abortRun?.();
  }

  /** The execution ran past its TimeoutSeconds: ends it as Step Functions does, with no Catch run. */
  timeOut(): void {
    this.timedOut = true;
    this.controller.abort();
    this.abortRun?.();
  }
}
