/**
 * The task tokens of the local runner: a waitForTaskToken Task (AwaitDecision) gets a fresh token,
 * the step is called with it, and the Task waits until approve/regenerate send a decision back with
 * that token (sendDecision), or fails with States.Timeout at the state's TimeoutSeconds or the
 * preview's `expires_at`, whichever comes first. Far deadlines (a preview may wait 30 days) are held
 * by deadline-timer.ts.
 */
import { randomUUID } from 'node:crypto';
import { TaskTokenInvalid } from '#ports/job-runner';
import type { JobDecision, StepPayload } from '#pipeline/steps';
import type { ProviderReady } from '#domain/job-execution';
import { deadlineTimer } from './deadline-timer';
import type { Execution } from './execution';
import { TOKEN_PLACEHOLDER } from './job-machine';
import type { TaskInfo } from './local-definition';
import type { StepInvoker } from './step-invoker';
import { stepError, taskError, toJson, type Json } from './task-outcomes';

function replacePlaceholder(value: Json, token: string): Json {
  if (value === TOKEN_PLACEHOLDER) return token;
  if (Array.isArray(value)) return value.map((v) => replacePlaceholder(v, token));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replacePlaceholder(v, token)]));
  }
  return value;
}

interface Wait {
  exec: Execution;
  resolve: (decision: Json) => void;
}

export class TaskTokens {
  /** The waits pending now, by token: a token is valid from the moment it exists until it is used or expires. */
  private readonly waits = new Map<string, Wait>();

  constructor(
    private readonly steps: StepInvoker,
    /** Called once an execution is parked at the wait (nothing left to do until a decision). */
    private readonly onParked: () => void,
  ) {}

  /** A waitForTaskToken Task: resolves with the decision sent back with its token. */
  async wait(exec: Execution, stateName: string, task: TaskInfo, payload: StepPayload): Promise<Json> {
    const token = `local-${randomUUID()}`;
    let deadline = task.timeoutS === undefined ? Infinity : Date.now() + task.timeoutS * 1000;
    const firstWaitDeadline = exec.takeFirstWaitDeadline();
    if (firstWaitDeadline !== undefined) deadline = Math.min(deadline, firstWaitDeadline);

    let settle!: { resolve: (decision: Json) => void; reject: (error: Error) => void };
    const decided = new Promise<Json>((resolveWait, rejectWait) => (settle = { resolve: resolveWait, reject: rejectWait }));
    // Registered before the step runs: on AWS the token is valid as soon as it exists.
    this.waits.set(token, { exec, resolve: (decision) => settle.resolve(decision) });
    const timer = deadlineTimer(deadline, () => {
      if (!this.waits.delete(token)) return;
      exec.busy = true;
      settle.reject(taskError('States.Timeout', `${stateName}: no decision before the deadline`));
    });
    try {
      // A deadline already past (a preview that expired while the process was down) calls no step.
      if (!this.waits.has(token)) return await decided;
      this.steps.call(exec, task.fn, replacePlaceholder(payload as unknown as Json, token) as unknown as StepPayload).running.then(
        (result) => {
          // The preview's own expiry, when the step reports one, ends the wait if it comes first.
          const expiresAt = (result as { expires_at?: unknown } | null | undefined)?.expires_at;
          if (typeof expiresAt === 'string' && !Number.isNaN(Date.parse(expiresAt))) timer.tighten(Date.parse(expiresAt));
          if (this.waits.has(token)) {
            exec.busy = false;
            exec.markSettled();
            this.onParked();
          }
        },
        (error: unknown) => {
          if (!this.waits.delete(token)) return;
          settle.reject(stepError(error));
        },
      );
      return await Promise.race([decided, exec.whenStopped]);
    } finally {
      this.waits.delete(token);
      timer.cancel();
      exec.busy = true;
    }
  }

  /** Sends a decision back to the wait holding `token`; throws TaskTokenInvalid when none does (any more). */
  decide(token: string, decision: JobDecision | ProviderReady): void {
    const wait = this.waits.get(token);
    if (!wait) throw new TaskTokenInvalid();
    this.waits.delete(token);
    wait.exec.busy = true;
    wait.resolve(toJson(decision));
  }

  /** Tokens of the waits pending now. */
  pending(): string[] {
    return [...this.waits.keys()];
  }
}
