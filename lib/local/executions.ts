/**
 * The executions the local runner holds: one per job, like an execution name on AWS (a job whose
 * execution ended in this process is never started again), each Task of the machine mapped to a step
 * call (step-invoker.ts) or a wait for a decision (task-tokens.ts), and whether anything is still
 * working (idle) or parked at AwaitDecision only.
 */
import type { JobExecutionInput, StepPayload, TaskFailure } from '#pipeline/steps';
import { Execution, executionKey } from './execution';
import type { JobMachine, TaskHandlers } from './job-machine';
import type { TaskInfo } from './local-definition';
import type { StepInvoker } from './step-invoker';
import { runnerStopped, type Json } from './task-outcomes';
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
    exec.done = execution.result
      .then(
        () => this.log(`${exec.label}: execution succeeded`),
        (error: unknown) => this.logFailure(exec, error),
      )
      .finally(() => this.forget(exec));
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
    return task.waitsForToken ? this.tokens.wait(exec, stateName, task, payload) : this.steps.invoke(exec, stateName, task, payload);
  }

  private logFailure(exec: Execution, error: unknown): void {
    if (exec.stopped) return this.log(`${exec.label}: execution stopped; the next start resumes it`);
    // The library wraps the Task's error; its cause carries the ASL Error and Cause.
    const failure = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const name = failure instanceof Error ? failure.name : 'Error';
    const cause = failure instanceof Error ? failure.message : String(failure);
    this.log(`${exec.label}: execution failed with ${name}: ${cause}`);
  }

  private forget(exec: Execution): void {
    exec.releaseHeldSlot();
    this.running.delete(exec.key);
    if (!exec.stopped) this.ended.add(exec.key);
    exec.markSettled();
    this.notifyIfIdle();
  }
}
