/**
 * The executions the local runner holds: one per job, like an execution name on AWS (a job whose
 * execution ended in this process is never started again), each Task of the machine mapped to a step
 * call (step-invoker.ts) or a wait for a decision (task-tokens.ts), and whether anything is still
 * working (idle) or parked at AwaitDecision only. Each execution ends at its TimeoutSeconds, as on
 * AWS, and one that ends failed or timed out is handed to `onEnded` (the mark-failed step run from
 * outside the machine, as the EventBridge rule does on AWS).
 */
import type { EndedExecution } from '#pipeline/execution-ended';
import type { JobExecutionInput, StepPayload, TaskFailure } from '#pipeline/steps';
import { deadlineTimer } from './deadline-timer';
import { Execution, executionKey } from './execution';
import type { JobMachine, TaskHandlers } from './job-machine';
import { LOCAL_TIMEOUT_PARAMETER, type TaskInfo } from './local-definition';
import type { StepInvoker } from './step-invoker';
import { runnerStopped, taskError, type Json } from './task-outcomes';
import { TaskTokens } from './task-tokens';

/** What a resumed job brings from its record (job-resume.ts). */
export interface ResumedFrom {
  firstWaitDeadline?: number;
  createdAt?: string;
}

export class RunningExecutions {
  private readonly running = new Map<string, Execution>();
  /** Jobs whose execution ended in this process: like an execution name on AWS, never started again. */
  private readonly ended = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  readonly tokens: TaskTokens;

  constructor(
    private readonly machine: JobMachine,
    private readonly steps: StepInvoker,
    private readonly log: (line: string) => void,
    private readonly onEnded?: (ended: EndedExecution) => Promise<unknown>,
  ) {
    this.tokens = new TaskTokens(steps, () => this.notifyIfIdle());
  }

  /** True when the job has an execution, running or ended, in this process. */
  has(accountId: number, jobId: number): boolean {
    const key = executionKey(accountId, jobId);
    return this.running.has(key) || this.ended.has(key);
  }

  /** Starts the job's execution at `startAt`; a resumed job keeps what its record says. */
  launch(input: JobExecutionInput & { failure?: TaskFailure }, startAt: string, resumed?: ResumedFrom): Execution {
    const exec = new Execution(input.account_id, input.job_id, resumed?.firstWaitDeadline);
    // A resumed job keeps the age on its record: after a restart it is still ahead of newer jobs.
    if (resumed) exec.age = Promise.resolve(exec.ageFrom(input.account_id, input.job_id, resumed.createdAt));
    this.running.set(exec.key, exec);

    this.log(`${exec.label}: execution started at ${startAt}`);
    const execution = this.machine.run(input, startAt, this.handlersFor(exec));
    exec.abortRun = execution.abort;
    // An execution's time counts from its start on AWS; a resumed job's execution started with the job.
    const timeoutS = this.machine.executionTimeoutS;
    const startedMs = resumed?.createdAt === undefined ? NaN : Date.parse(resumed.createdAt);
    const timeout =
      timeoutS === undefined
        ? undefined
        : deadlineTimer((Number.isNaN(startedMs) ? Date.now() : startedMs) + timeoutS * 1000, () => {
            this.log(`${exec.label}: execution timed out after ${timeoutS} s`);
            exec.timeOut();
          });
    exec.done = execution.result
      .then(
        () => this.log(`${exec.label}: execution succeeded`),
        (error: unknown) => this.failedOrStopped(exec, input, error),
      )
      .finally(() => {
        timeout?.cancel();
        this.forget(exec);
      });
    return exec;
  }

  /** Resolves once no execution is doing anything but waiting at AwaitDecision. */
  idle(): Promise<void> {
    if (!this.anyBusy()) return Promise.resolve();
    return new Promise<void>((resolveIdle) => this.idleWaiters.push(resolveIdle));
  }

  /** Aborts every execution, leaving the jobs as they are, and waits for them to end. */
  async stopAll(): Promise<void> {
    const running = [...this.running.values()];
    for (const exec of running) exec.stop();
    await Promise.all(running.map((e) => e.done));
  }

  /** Wakes idle() waiters once nothing is busy. */
  notifyIfIdle(): void {
    if (this.anyBusy()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolveIdle of waiters) resolveIdle();
  }

  private anyBusy(): boolean {
    return [...this.running.values()].some((e) => e.busy);
  }

  private handlersFor(exec: Execution): TaskHandlers {
    return Object.fromEntries(
      Object.entries(this.machine.tasks).map(([stateName, task]) => [
        stateName,
        (raw: unknown) => this.runTask(exec, stateName, task, raw),
      ]),
    );
  }

  private async runTask(exec: Execution, stateName: string, task: TaskInfo, raw: unknown): Promise<Json> {
    if (exec.controller.signal.aborted) throw runnerStopped();
    // A render slot is kept only for a render step that follows at once.
    if (task.fn !== 'render') exec.releaseHeldSlot();
    const payload = (raw as { Payload: StepPayload }).Payload;
    const run = task.timeoutPath ? { ...task, timeoutS: timeoutOfRun(stateName, raw) } : task;
    return task.waitsForToken ? this.tokens.wait(exec, stateName, run, payload) : this.steps.invoke(exec, stateName, run, payload);
  }

  /** An execution that did not succeed: stopped by the runner (resumed later), or ended FAILED / TIMED_OUT. */
  private async failedOrStopped(exec: Execution, input: JobExecutionInput, error: unknown): Promise<void> {
    if (exec.stopped) return this.log(`${exec.label}: execution stopped; the next start resumes it`);
    // The library wraps the Task's error; its cause carries the ASL Error and Cause.
    const failure = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const name = failure instanceof Error ? failure.name : 'Error';
    const cause = failure instanceof Error ? failure.message : String(failure);
    if (!exec.timedOut) this.log(`${exec.label}: execution failed with ${name}: ${cause}`);
    const ended: EndedExecution = exec.timedOut
      ? { account_id: input.account_id, job_id: input.job_id, status: 'TIMED_OUT' }
      : { account_id: input.account_id, job_id: input.job_id, status: 'FAILED', error: name, cause };
    try {
      await this.onEnded?.(ended);
    } catch (endError) {
      this.log(`${exec.label}: the ended execution's job was not failed: ${String(endError)}`);
    }
  }

  private forget(exec: Execution): void {
    exec.releaseHeldSlot();
    this.running.delete(exec.key);
    if (!exec.stopped) this.ended.add(exec.key);
    exec.markSettled();
    this.notifyIfIdle();
  }
}

/** A run's timeout from its TimeoutSecondsPath, which the copy resolves into the Task's parameters (local-definition.ts). */
function timeoutOfRun(stateName: string, raw: unknown): number {
  const value = (raw as Record<string, unknown>)[LOCAL_TIMEOUT_PARAMETER];
  // Step Functions fails the execution the same way when the path does not hold a positive integer.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw taskError('States.Runtime', `${stateName}: TimeoutSecondsPath does not hold a positive integer (${JSON.stringify(value)})`);
  }
  return value;
}
