/**
 * The local twin of Step Functions for video jobs (docs/architecture.md): the ONE ASL file, executed in process by
 * `aws-local-stepfunctions`, its Task states mapped to the same pipeline handlers the Lambda functions
 * run. It gives the semantics the AWS path has: one execution per job, Retry/Catch as written, a fresh
 * task token per AwaitDecision that approve/regenerate send back, States.Timeout when a preview is left
 * undecided, and, since this process can die, re-entry at the state recorded on the job.
 *
 * The library is driven with a COPY of the definition, because of how it keeps time: it arms one
 * `setTimeout` per Task (60 s when TimeoutSeconds is absent) and one for the execution, and Node's
 * timers overflow past 2^31-1 ms (≈24.8 days) and then fire at once. So the copy gives every Task the
 * largest timeout a timer can hold and has no execution timeout, and this runner enforces each Task's
 * own TimeoutSeconds itself: from the moment the step really starts (a render step queued for a CPU
 * slot is not yet late), and, for AwaitDecision, up to the preview's expiry, with chained, unref'd
 * timers that can wait for months.
 *
 * Render steps share a few CPU slots, granted oldest job first (render-slots.ts); a job waiting for
 * one shows its place in line on its record (`queue_position`, queue-positions.ts).
 */
import { randomUUID } from 'node:crypto';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';
import {
  FINAL_ERROR,
  STATE_OF_STEP,
  type JobDecision,
  type JobExecutionInput,
  type PipelineFunction,
  type StepPayload,
  type TaskFailure,
} from '#pipeline/steps';
import { deadlineTimer } from './deadline-timer';
import { loadLocalDefinition, machineOf, reachableFrom, type TaskInfo } from './local-definition';
import { RenderSlots, type JobAge } from './render-slots';
import { queuePositions } from './queue-positions';

/** What `$$.Task.Token` resolves to; each wait swaps it for a fresh token. */
const TOKEN_PLACEHOLDER = 'local-task-token-placeholder';

/** The failure handed to mark_failed when a job is re-entered at MarkFailed after a restart. */
export const INTERRUPTED_FAILURE: TaskFailure = {
  Error: FINAL_ERROR,
  Cause: JSON.stringify({ code: 'internal_error', message: 'The job was interrupted while failing' }),
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What resumeActiveJobs reads, and where queue positions go (the stack's: pipeline-steps.ts). */
export interface LocalJobStore {
  listActiveJobs(): Promise<{ accountId: number; jobId: number }[]>;
  /** Releases allowance units stranded by jobs that ended or never existed (functions/pipeline/sweeper.ts). */
  sweepStrandedUnits?(): Promise<unknown>;
  getJob(
    accountId: number,
    jobId: number,
  ): Promise<
    | {
        status: string;
        mode: JobExecutionInput['job']['mode'];
        method: JobExecutionInput['job']['method'];
        resume_at?: string | null;
        preview_expires_at?: string | null;
        /** The job's age in the render queue; without it, the order the runner started jobs in. */
        created_at?: string;
        queue_position?: number | null;
      }
    | undefined
  >;
  /** Shows a job's place in the render queue on its record (null: not waiting). */
  setQueuePosition?(accountId: number, jobId: number, position: number | null): Promise<unknown>;
}

export interface LocalJobRunnerOptions {
  /**
   * Runs one pipeline step, as the Lambda function would (functions/pipeline/run-step.ts). `only` is
   * the function the state invokes; `signal` aborts when the Task times out or the runner stops (on
   * AWS the function's own timeout ends the work).
   */
  runStep(payload: StepPayload, options: { signal: AbortSignal; only: PipelineFunction }): Promise<unknown>;
  /** The ASL file, absolute or relative to the repository root. */
  definitionPath?: string;
  log?: (line: string) => void;
  /** How many steps of the `render` function run at once (ffmpeg uses every core). Default 2. */
  renderConcurrency?: number;
  /**
   * Milliseconds between retries instead of the ASL's backoff (tests): one number for every state, or
   * per state name as aws-local-stepfunctions takes them.
   */
  retryIntervalOverrides?: number | Record<string, number | number[]>;
  /** Wraps each step call (fault injection in tests). */
  wrapStep?: (payload: StepPayload, call: () => Promise<unknown>) => Promise<unknown>;
  /** Where resumeActiveJobs finds the jobs in flight. Default: none (nothing to resume, no positions shown). */
  store?: LocalJobStore;
  /** How long stop() waits for steps already running to return. Default 10 s. */
  stopGraceMs?: number;
}

export interface LocalJobRunner extends JobRunner {
  /** Re-enters every job not done or failed at its recorded state; returns how many were started. */
  resumeActiveJobs(): Promise<number>;
  /** Resolves once no execution is doing anything but waiting at AwaitDecision. */
  idle(): Promise<void>;
  /** Aborts every execution without touching the jobs (the next start resumes them). */
  stop(): Promise<void>;
  /** Tokens of the waits pending now (diagnostics and tests). */
  pendingTokens(): string[];
}

/** A runner given no store (unit tests of the machine alone) knows of no job records. */
const NO_STORE: LocalJobStore = { listActiveJobs: async () => [], getJob: async () => undefined };

/** What a Task fails with: the name is the ASL Error (Retry and Catch match it), the message the Cause. */
function taskError(name: string, cause: string): Error {
  const error = new Error(cause);
  error.name = name;
  return error;
}

/**
 * A step's error as the lambda:invoke integration reports it: Error is the function's errorType (the
 * thrown error's name), Cause the function's error payload as JSON, exactly what mark_failed gets on AWS.
 */
function stepError(error: unknown): Error {
  const e = error instanceof Error ? error : new Error(String(error));
  const errorType = e.name || 'Error';
  const cause = JSON.stringify({ errorType, errorMessage: e.message, trace: (e.stack ?? '').split('\n') });
  return taskError(errorType, cause);
}

const ABORTED = 'Local.ExecutionStopped';

function replacePlaceholder(value: Json, token: string): Json {
  if (value === TOKEN_PLACEHOLDER) return token;
  if (Array.isArray(value)) return value.map((v) => replacePlaceholder(v, token));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replacePlaceholder(v, token)]));
  }
  return value;
}

const toJson = (value: unknown): Json => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json));

interface Execution {
  key: string;
  label: string;
  /** The job's place in the render queue, read from its record once it first has to wait. */
  age?: Promise<JobAge>;
  /** Tie-breaker when the record has no creation time: the order jobs were started in. */
  startedAt: number;
  /**
   * The render slot of a render step that just succeeded, kept for the job's next Task: when that is
   * a render step too (Compose after GenerateReaction), the job goes on without queueing again.
   */
  heldSlot?: () => void;
  controller: AbortController;
  /** Rejects once the execution is stopped (one abort listener per execution, not one per Task). */
  whenStopped: Promise<never>;
  abort?: () => void;
  stopped: boolean;
  /** False only while parked at AwaitDecision, waiting for a decision. */
  busy: boolean;
  /** Resumed at AwaitDecision: the preview's recorded expiry bounds the first wait. */
  firstWaitDeadline?: number;
  /** Resolves once the execution first parks at AwaitDecision, or ends (resume waits on it). */
  settled: Promise<void>;
  markSettled: () => void;
  done: Promise<void>;
}

interface Wait {
  exec: Execution;
  resolve: (decision: Json) => void;
}

/** Rejects when the execution is stopped, so no Task promise outlives stop(). */
const untilStopped = (exec: Execution): Promise<never> => exec.whenStopped;

export function createLocalJobRunner(options: LocalJobRunnerOptions): LocalJobRunner {
  const log = options.log ?? (() => undefined);
  const { definition, tasks } = loadLocalDefinition(options.definitionPath);
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const store = options.store ?? NO_STORE;
  const keyOf = (accountId: number, jobId: number) => `${accountId}/${jobId}`;
  const positions = queuePositions(
    async (key, position) => {
      const [accountId, jobId] = key.split('/').map(Number) as [number, number];
      await store.setQueuePosition?.(accountId, jobId, position);
    },
    (key, error) => log(`job ${key}: queue position not recorded: ${String(error)}`),
  );
  const renderSlots = new RenderSlots(Math.max(1, options.renderConcurrency ?? 2), positions.set);

  let retryIntervalOverrides: Record<string, number | number[]> | undefined;
  if (typeof options.retryIntervalOverrides === 'number') {
    const ms = options.retryIntervalOverrides;
    retryIntervalOverrides = Object.fromEntries(Object.keys(tasks).map((name) => [name, ms]));
  } else {
    retryIntervalOverrides = options.retryIntervalOverrides;
  }

  // A copy with another StartAt is still valid ASL once the states it cannot reach are left out: it
  // re-enters the machine where the job was. The whole definition is validated once (slow: ~0.3 s).
  machineOf(definition, true);
  const machineFrom = (startAt: string) =>
    startAt === definition.StartAt ? machineOf(definition, true) : machineOf(reachableFrom(definition, startAt), false);

  const executions = new Map<string, Execution>();
  /** Jobs whose execution ended in this process: like an execution name on AWS, never started again. */
  const ended = new Set<string>();
  const waits = new Map<string, Wait>();
  const inflight = new Set<Promise<unknown>>();
  let idleWaiters: (() => void)[] = [];
  let stopped = false;

  const notify = () => {
    if ([...executions.values()].some((e) => e.busy)) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolveIdle of waiters) resolveIdle();
  };

  /** Calls the step; its signal aborts with `abort()` or when the execution is stopped. */
  const callStep = (exec: Execution, fn: PipelineFunction, payload: StepPayload) => {
    const controller = new AbortController();
    const onStop = () => controller.abort(taskError(ABORTED, 'The local job runner stopped'));
    exec.controller.signal.addEventListener('abort', onStop, { once: true });
    const call = () => options.runStep(payload, { signal: controller.signal, only: fn });
    const running = Promise.resolve().then(() => (options.wrapStep ? options.wrapStep(payload, call) : call()));
    inflight.add(running);
    const forget = () => {
      inflight.delete(running);
      exec.controller.signal.removeEventListener('abort', onStop);
    };
    running.then(forget, forget);
    return { running, abort: (reason: Error) => controller.abort(reason) };
  };

  const ageFromRecord = (exec: Execution, accountId: number, jobId: number, createdAt: string | undefined): JobAge => {
    const at = createdAt === undefined ? NaN : Date.parse(createdAt);
    return { createdAtMs: Number.isNaN(at) ? exec.startedAt : at, accountId, jobId };
  };

  /** The job's age, read once per execution, and only when a step has to queue. */
  const ageOf = (exec: Execution, accountId: number, jobId: number): Promise<JobAge> =>
    (exec.age ??= store
      .getJob(accountId, jobId)
      .then(
        (job) => ageFromRecord(exec, accountId, jobId, job?.created_at),
        () => ageFromRecord(exec, accountId, jobId, undefined),
      ));

  /** A render slot, oldest job first; the record stops showing a queue position before the step runs. */
  async function renderSlot(exec: Execution, payload: StepPayload): Promise<() => void> {
    const age = renderSlots.full
      ? await ageOf(exec, payload.account_id, payload.job_id)
      : ageFromRecord(exec, payload.account_id, payload.job_id, undefined);
    const release = await renderSlots.acquire(exec.key, age, exec.controller.signal);
    await positions.settled(exec.key);
    return release;
  }

  const releaseHeld = (exec: Execution) => {
    const held = exec.heldSlot;
    exec.heldSlot = undefined;
    held?.();
  };

  /** A lambda:invoke Task: the step, its timeout counted from when it starts, the Lambda-shaped result. */
  async function invoke(exec: Execution, stateName: string, task: TaskInfo, payload: StepPayload): Promise<Json> {
    let release: () => void = () => undefined;
    if (task.fn === 'render') {
      release = exec.heldSlot ?? (await renderSlot(exec, payload));
      exec.heldSlot = undefined;
    }
    const { running: step, abort } = callStep(exec, task.fn, payload);
    // A failed step lets go at once: its retry may back off for seconds, and others can use the slot.
    step.then(() => (task.fn === 'render' && !exec.stopped ? (exec.heldSlot = release) : release()), release);
    let timer: ReturnType<typeof deadlineTimer> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      if (task.timeoutS === undefined) return;
      timer = deadlineTimer(Date.now() + task.timeoutS * 1000, () => {
        const error = taskError('States.Timeout', `${stateName} did not finish within ${task.timeoutS} s`);
        reject(error);
        abort(error);
      });
    });
    try {
      const result = await Promise.race([
        step.catch((error: unknown) => {
          throw stepError(error);
        }),
        timedOut,
        untilStopped(exec),
      ]);
      return { ExecutedVersion: '$LATEST', Payload: toJson(result), StatusCode: 200 };
    } finally {
      timer?.cancel();
    }
  }

  /**
   * A waitForTaskToken Task: a fresh token, the step called with it, then the decision sent back with
   * that token, or States.Timeout at the state's TimeoutSeconds or the preview's `expires_at`.
   */
  async function awaitToken(exec: Execution, stateName: string, task: TaskInfo, payload: StepPayload): Promise<Json> {
    const token = `local-${randomUUID()}`;
    let deadline = task.timeoutS === undefined ? Infinity : Date.now() + task.timeoutS * 1000;
    if (exec.firstWaitDeadline !== undefined) deadline = Math.min(deadline, exec.firstWaitDeadline);
    exec.firstWaitDeadline = undefined;

    let settle!: { resolve: (decision: Json) => void; reject: (error: Error) => void };
    const decided = new Promise<Json>((resolveWait, rejectWait) => (settle = { resolve: resolveWait, reject: rejectWait }));
    // Registered before the step runs: on AWS the token is valid as soon as it exists.
    waits.set(token, { exec, resolve: (decision) => settle.resolve(decision) });
    const timer = deadlineTimer(deadline, () => {
      if (!waits.delete(token)) return;
      exec.busy = true;
      settle.reject(taskError('States.Timeout', `${stateName}: no decision before the deadline`));
    });
    try {
      // A deadline already past (a preview that expired while the process was down) calls no step.
      if (!waits.has(token)) return await decided;
      callStep(exec, task.fn, replacePlaceholder(payload as unknown as Json, token) as unknown as StepPayload).running.then(
        (result) => {
          const expiresAt = (result as { expires_at?: unknown } | null | undefined)?.expires_at;
          if (typeof expiresAt === 'string' && !Number.isNaN(Date.parse(expiresAt))) timer.tighten(Date.parse(expiresAt));
          if (waits.has(token)) {
            exec.busy = false;
            exec.markSettled();
            notify();
          }
        },
        (error: unknown) => {
          if (!waits.delete(token)) return;
          settle.reject(stepError(error));
        },
      );
      return await Promise.race([decided, untilStopped(exec)]);
    } finally {
      waits.delete(token);
      timer.cancel();
      exec.busy = true;
    }
  }

  function launch(
    input: JobExecutionInput & { failure?: TaskFailure },
    startAt: string,
    resumed?: { firstWaitDeadline?: number; createdAt?: string },
  ): void {
    const key = keyOf(input.account_id, input.job_id);
    let markSettled!: () => void;
    const controller = new AbortController();
    const whenStopped = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(taskError(ABORTED, 'The local job runner stopped')), { once: true }),
    );
    whenStopped.catch(() => undefined);
    const exec: Execution = {
      key,
      label: `job ${input.job_id} (account ${input.account_id})`,
      startedAt: Date.now(),
      controller,
      whenStopped,
      stopped: false,
      busy: true,
      firstWaitDeadline: resumed?.firstWaitDeadline,
      settled: new Promise<void>((r) => (markSettled = r)),
      markSettled: () => markSettled(),
      done: Promise.resolve(),
    };
    // A resumed job keeps the age on its record: after a restart it is still ahead of newer jobs.
    if (resumed) exec.age = Promise.resolve(ageFromRecord(exec, input.account_id, input.job_id, resumed.createdAt));
    executions.set(key, exec);

    const handlers = Object.fromEntries(
      Object.entries(tasks).map(([stateName, task]) => [
        stateName,
        async (raw: unknown): Promise<Json> => {
          if (exec.controller.signal.aborted) throw taskError(ABORTED, 'The local job runner stopped');
          if (task.fn !== 'render') releaseHeld(exec);
          const payload = (raw as { Payload: StepPayload }).Payload;
          return task.waitsForToken ? awaitToken(exec, stateName, task, payload) : invoke(exec, stateName, task, payload);
        },
      ]),
    );
    log(`${exec.label}: execution started at ${startAt}`);
    const execution = machineFrom(startAt).run(input as never, {
      overrides: { taskResourceLocalHandlers: handlers as never, retryIntervalOverrides },
      context: { Task: { Token: TOKEN_PLACEHOLDER } },
    });
    exec.abort = execution.abort;
    exec.done = execution.result.then(
      () => log(`${exec.label}: execution succeeded`),
      (error: unknown) => {
        if (exec.stopped) return log(`${exec.label}: execution stopped; the next start resumes it`);
        const failure = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        const name = failure instanceof Error ? failure.name : 'Error';
        const cause = failure instanceof Error ? failure.message : String(failure);
        log(`${exec.label}: execution failed with ${name}: ${cause}`);
      },
    ).finally(() => {
      releaseHeld(exec);
      executions.delete(key);
      if (!exec.stopped) ended.add(key);
      exec.markSettled();
      notify();
    });
  }

  return {
    async start(input) {
      if (stopped) throw new Error('The local job runner is stopped');
      const key = keyOf(input.account_id, input.job_id);
      if (executions.has(key) || ended.has(key)) return;
      launch(input, definition.StartAt);
    },

    async sendDecision(taskToken, decision: JobDecision) {
      const wait = waits.get(taskToken);
      if (!wait) throw new TaskTokenInvalid();
      waits.delete(taskToken);
      wait.exec.busy = true;
      wait.resolve(toJson(decision));
    },

    async resumeActiveJobs() {
      if (stopped) throw new Error('The local job runner is stopped');
      const jobs = store;
      await jobs.sweepStrandedUnits?.();
      let resumed = 0;
      const settling: Promise<void>[] = [];
      for (const { accountId, jobId } of await jobs.listActiveJobs()) {
        const key = keyOf(accountId, jobId);
        if (executions.has(key) || ended.has(key)) continue;
        const job = await jobs.getJob(accountId, jobId);
        if (!job || job.status === 'done' || job.status === 'failed') continue;
        // A position left from before the restart is cleared; a job that has to wait again gets a new one.
        positions.known(key, job.queue_position ?? null);
        positions.set(key, null);
        const input: JobExecutionInput & { failure?: TaskFailure } = {
          account_id: accountId,
          job_id: jobId,
          job: { mode: job.mode, method: job.method },
        };
        let startAt = job.resume_at ?? definition.StartAt;
        if (!tasks[startAt]) {
          log(`job ${jobId} (account ${accountId}): recorded state ${startAt} is not a Task of the machine; failing it`);
          startAt = STATE_OF_STEP.mark_failed;
          input.failure = {
            Error: FINAL_ERROR,
            Cause: JSON.stringify({ code: 'internal_error', message: 'The job could not be resumed after a restart' }),
          };
        } else if (startAt === STATE_OF_STEP.mark_failed) {
          input.failure = INTERRUPTED_FAILURE;
        }
        const expires = startAt === STATE_OF_STEP.await_decision && job.preview_expires_at ? Date.parse(job.preview_expires_at) : NaN;
        launch(input, startAt, { firstWaitDeadline: Number.isNaN(expires) ? undefined : expires, createdAt: job.created_at });
        resumed++;
        // A preview waiting for a decision gets its new token before the API serves approve again.
        if (startAt === STATE_OF_STEP.await_decision) settling.push(executions.get(key)?.settled ?? Promise.resolve());
      }
      if (settling.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(settling), new Promise((r) => (timer = setTimeout(r, 30_000).unref()))]);
        clearTimeout(timer);
      }
      return resumed;
    },

    idle() {
      if (![...executions.values()].some((e) => e.busy)) return Promise.resolve();
      return new Promise<void>((resolveIdle) => idleWaiters.push(resolveIdle));
    },

    async stop() {
      stopped = true;
      const running = [...executions.values()];
      for (const exec of running) {
        exec.stopped = true;
        exec.controller.abort();
        exec.abort?.();
      }
      await Promise.all(running.map((e) => e.done));
      // Steps already running finish their write (or fail) before the stores go away; not forever.
      if (inflight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inflight]),
          new Promise((r) => (timer = setTimeout(r, stopGraceMs).unref())),
        ]);
        clearTimeout(timer);
      }
      notify();
    },

    pendingTokens: () => [...waits.keys()],
  };
}
