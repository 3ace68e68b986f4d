/**
 * The job state machine as the local runner starts executions on it: the prepared copy of the ASL
 * (local-definition.ts), entered at its StartAt or, for a job resumed after a restart, at the Task
 * state recorded on the job, with every Task mapped to a handler of the runner.
 */
import type { JobExecutionInput } from '#pipeline/steps';
import { loadLocalDefinition, machineOf, reachableFrom, type TaskInfo } from './local-definition';
import type { Json } from './task-outcomes';

/** What `$$.Task.Token` resolves to; each wait swaps it for a fresh token (task-tokens.ts). */
export const TOKEN_PLACEHOLDER = 'local-task-token-placeholder';

/** The runner's handler of each Task state, by state name: it gets the state's parameters. */
export type TaskHandlers = Record<string, (raw: unknown) => Promise<Json>>;

/** Retry intervals as the library takes them: milliseconds per state name. */
type RetryIntervals = Record<string, number | number[]>;

export interface JobMachine {
  startAt: string;
  /** The Task states, by name. */
  tasks: Record<string, TaskInfo>;
  /** The execution's TimeoutSeconds (the runner enforces it). */
  executionTimeoutS?: number;
  /** Starts an execution at `startAt`; `result` settles when it ends, `abort` ends it. */
  run(input: JobExecutionInput, startAt: string, handlers: TaskHandlers): { result: Promise<unknown>; abort: () => void };
}

/**
 * Loads and validates the definition (once: ~0.3 s). `retryIntervalOverrides` replaces the ASL's
 * backoff (tests): one number for every Task state, or per state name; `waitOverridesMs` a Wait
 * state's seconds, by state name.
 */
export function localJobMachine(definitionPath?: string, retryIntervalOverrides?: number | RetryIntervals, waitOverridesMs?: Record<string, number>): JobMachine {
  const { definition, tasks, executionTimeoutS } = loadLocalDefinition(definitionPath);
  const retryIntervals: RetryIntervals | undefined =
    typeof retryIntervalOverrides === 'number'
      ? Object.fromEntries(Object.keys(tasks).map((name) => [name, retryIntervalOverrides]))
      : retryIntervalOverrides;

  // A copy with another StartAt is still valid ASL once the states it cannot reach are left out: it
  // re-enters the machine where the job was. The whole definition is validated once.
  machineOf(definition, true);
  const machineFrom = (startAt: string) =>
    startAt === definition.StartAt ? machineOf(definition, true) : machineOf(reachableFrom(definition, startAt), false);

  return {
    startAt: definition.StartAt,
    tasks,
    executionTimeoutS,
    run: (input, startAt, handlers) =>
      machineFrom(startAt).run(input as never, {
        overrides: { taskResourceLocalHandlers: handlers as never, retryIntervalOverrides: retryIntervals, waitTimeOverrides: waitOverridesMs },
        context: { Task: { Token: TOKEN_PLACEHOLDER } },
      }),
  };
}
