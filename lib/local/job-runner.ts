/**
 * The local twin of Step Functions for video jobs (docs/architecture.md): the ONE ASL file, executed in process by
 * `aws-local-stepfunctions`, its Task states mapped to the same pipeline handlers the Lambda functions
 * run. It gives the semantics the AWS path has: one execution per job, Retry/Catch as written, a fresh
 * task token per AwaitDecision that approve/regenerate send back, States.Timeout when a preview is left
 * undecided, and, since this process can die, re-entry at the state recorded on the job. An execution
 * ends at its TimeoutSeconds as on AWS, and one that ends failed or timed out is handed to
 * `executionEnded` (what the EventBridge rule on ended executions does on AWS).
 *
 * The library is driven with a COPY of the definition, because of how it keeps time: it arms one
 * `setTimeout` per Task (60 s when TimeoutSeconds is absent) and one for the execution, and Node's
 * timers overflow past 2^31-1 ms (≈24.8 days) and then fire at once. So the copy gives every Task the
 * largest timeout a timer can hold and has no execution timeout (local-definition.ts), and this runner
 * enforces each Task's own TimeoutSeconds (or TimeoutSecondsPath) itself: from the moment the step
 * really starts (a render step queued for a CPU slot is not yet late, step-invoker.ts), and, for
 * AwaitDecision, up to the preview's expiry (task-tokens.ts), and the execution's TimeoutSeconds
 * (executions.ts), with chained, unref'd timers that can wait for months (deadline-timer.ts).
 *
 * Render steps share a few CPU slots, granted oldest job first (render-slots.ts); a job waiting for
 * one shows its place in line on its record (`queue_position`, queue-positions.ts).
 *
 * This module is the runner's contract and assembly; the executions it holds are executions.ts, and
 * where a job re-enters after a restart is job-resume.ts.
 */
import { JOB_STATE } from '#domain/job-states';
import type { JobRunner } from '#ports/job-runner';
import type { EndedExecution } from '#pipeline/execution-ended';
import { STATE_OF_STEP, type JobDecision, type PipelineFunction, type StepPayload } from '#pipeline/steps';
import type { ProviderReady } from '#domain/job-execution';
import { executionKey } from './execution';
import { RunningExecutions } from './executions';
import { localJobMachine, type JobMachine } from './job-machine';
import { hasEnded, resumePlan, type RecordedJob } from './job-resume';
import { StepInvoker } from './step-invoker';
import { waitAtMost } from './wait-at-most';

export { INTERRUPTED_FAILURE } from './job-resume';

/** What resumeActiveJobs reads, and where queue positions go (the stack's: pipeline-steps.ts). */
export interface LocalJobStore {
  listActiveJobs(): Promise<{ accountId: number; jobId: number }[]>;
  /** Releases allowance units stranded by jobs that ended or never existed (functions/pipeline/sweeper.ts). */
  sweepStrandedUnits?(): Promise<unknown>;
  getJob(accountId: number, jobId: number): Promise<RecordedJob | undefined>;
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
   * Over the render cap, a step is refused with Lambda's throttle (`Lambda.TooManyRequestsException`,
   * which the ASL's capacity retrier waits out) instead of queueing for a slot oldest first: how a
   * burst meets the render function's reserved concurrency on AWS.
   */
  throttle?: boolean;
  /**
   * Milliseconds between retries instead of the ASL's backoff (tests): one number for every state, or
   * per state name as aws-local-stepfunctions takes them.
   */
  retryIntervalOverrides?: number | Record<string, number | number[]>;
  /** Milliseconds each WaitForCapacity turn waits instead of the seconds AwaitCapacity answered (tests). */
  capacityWaitMs?: number;
  /** Wraps each step call (fault injection in tests). */
  wrapStep?: (payload: StepPayload, call: () => Promise<unknown>) => Promise<unknown>;
  /** Where resumeActiveJobs finds the jobs in flight. Default: none (nothing to resume, no positions shown). */
  store?: LocalJobStore;
  /** How long stop() waits for steps already running to return. Default 10 s. */
  stopGraceMs?: number;
  /**
   * Called when an execution ends FAILED or TIMED_OUT (not when the runner stops it): the stack fails
   * the job there (functions/pipeline/execution-ended.ts), as the EventBridge rule does on AWS.
   */
  executionEnded?: (ended: EndedExecution) => Promise<unknown>;
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

/** How long resume waits for resumed previews to get their new token before it answers anyway. */
const RESUME_SETTLE_MS = 30_000;

export function createLocalJobRunner(options: LocalJobRunnerOptions): LocalJobRunner {
  const log = options.log ?? (() => undefined);
  const machine = localJobMachine(
    options.definitionPath,
    options.retryIntervalOverrides,
    options.capacityWaitMs === undefined ? undefined : { [JOB_STATE.WaitForCapacity]: options.capacityWaitMs },
  );
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const store = options.store ?? NO_STORE;
  const steps = new StepInvoker(
    (payload, context) => {
      const call = () => options.runStep(payload, context);
      return options.wrapStep ? options.wrapStep(payload, call) : call();
    },
    store,
    { size: Math.max(1, options.renderConcurrency ?? 2), throttle: options.throttle ?? false },
    log,
  );
  const executions = new RunningExecutions(machine, steps, log, options.executionEnded);
  let stopped = false;

  return {
    async start(input) {
      if (stopped) throw new Error('The local job runner is stopped');
      if (executions.has(input.account_id, input.job_id)) return;
      executions.launch(input, machine.startAt);
    },

    async sendDecision(taskToken, decision: JobDecision | ProviderReady) {
      executions.tokens.decide(taskToken, decision);
    },

    async resumeActiveJobs() {
      if (stopped) throw new Error('The local job runner is stopped');
      return resumeActiveJobs(store, machine, executions, steps, log);
    },

    idle: () => executions.idle(),

    async stop() {
      stopped = true;
      await executions.stopAll();
      // Steps already running finish their write (or fail) before the stores go away; not forever.
      await steps.drain(stopGraceMs);
      executions.notifyIfIdle();
    },

    pendingTokens: () => executions.tokens.pending(),
  };
}

/** Re-enters every job in flight that has no execution here yet, at the state recorded on it. */
async function resumeActiveJobs(
  store: LocalJobStore,
  machine: JobMachine,
  executions: RunningExecutions,
  steps: StepInvoker,
  log: (line: string) => void,
): Promise<number> {
  await store.sweepStrandedUnits?.();
  let resumed = 0;
  const settling: Promise<void>[] = [];
  for (const { accountId, jobId } of await store.listActiveJobs()) {
    if (executions.has(accountId, jobId)) continue;
    const job = await store.getJob(accountId, jobId);
    if (!job || hasEnded(job)) continue;
    steps.clearStalePosition(executionKey(accountId, jobId), job.queue_position ?? null);
    const plan = resumePlan(accountId, jobId, job, machine, log);
    const exec = executions.launch(plan.input, plan.startAt, { firstWaitDeadline: plan.firstWaitDeadline, createdAt: plan.createdAt });
    resumed++;
    // A preview waiting for a decision gets its new token before the API serves approve again.
    if (plan.startAt === STATE_OF_STEP.await_decision) settling.push(exec.settled);
  }
  if (settling.length > 0) await waitAtMost(Promise.all(settling), RESUME_SETTLE_MS);
  return resumed;
}
