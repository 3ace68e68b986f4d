/**
 * The job pipeline in one table: each Task step the ASL sends, the state it runs in, the Lambda
 * function that runs it, and its Task timeout. The bookkeeping steps run in one small function, the
 * generation and ffmpeg work in one big one. Derived from it: each function's task map (its type, in
 * the function's entry under functions/handlers), the dispatch that refuses a step of the other
 * function (run-step.ts), the CDK construct's functions and ASL substitutions, the local runner's
 * routing, and the check of the ASL file (`checkJobDefinition`, run by CDK at synth, by the local
 * runner at load and by the tests).
 */
import type { FunctionNeeds } from '#functions/routes';
import type { AllOf } from '#ports/ports';
import { JOB_STATE, JOB_STATE_NAMES, type JobStateName } from '#domain/job-states';
import { JOB_LIMITS } from '#domain/jobs';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { CAPACITY_WAIT } from '#domain/capacity-wait';

export const JOB_STATE_MACHINE_FILE = 'statemachines/video-job.asl.json';

interface PipelineFunctionSpec {
  /** The ASL's placeholder for the function's ARN. */
  substitution: string;
  /**
   * How long one call of its steps may run: the state machine's Task timeouts are built on it
   * (taskTimeoutS), and the cloud gives the function exactly this as its Lambda timeout.
   */
  callBudgetS: number;
}

export const PIPELINE_FUNCTIONS = {
  steps: {
    entry: 'functions/handlers/job-steps.ts',
    description: 'video job bookkeeping: inputs check, charges, the preview wait, the video record, failures',
    substitution: 'JobStepsFunctionArn',
    table: 'readwrite',
    bucket: 'readwrite',
    // A job's working files; a failed job's output.
    writes: ['jobs', 'videos'],
    callBudgetS: 60,
  },
  render: {
    entry: 'functions/handlers/job-render.ts',
    description: 'video job media: reaction generation, the captioned preview, the final composition',
    substitution: 'JobRenderFunctionArn',
    table: 'readwrite',
    bucket: 'readwrite',
    // Clips, previews and references of the job; the finished video and poster; a stock avatar's portrait and the built-in sounds, made once per stack.
    writes: ['jobs', 'videos', 'samples', 'sounds'],
    ffmpeg: true,
    native: true,
    engines: ['reaction'],
    // A hosted engine's clip is looked at for its face box by the face-check function (generate-reaction.ts).
    calls: [{ helper: 'face-check', env: 'FACE_CHECK_FUNCTION_NAME' }],
    callBudgetS: 900,
  },
} as const satisfies Record<string, FunctionNeeds & PipelineFunctionSpec>;

export type PipelineFunction = keyof typeof PIPELINE_FUNCTIONS;

/**
 * On a schedule: releases stranded allowance units and starts jobs written but never started
 * (pipeline/sweeper.ts), and fails demos and avatars stuck in processing (pipeline/stuck-processing.ts).
 */
export const SWEEPER_FUNCTION = {
  entry: 'functions/handlers/sweeper.ts',
  description: 'safety net: stranded allowance units, jobs never started, preview decisions not handed over, demos and avatars stuck in processing',
  table: 'readwrite',
  // A job failed for an undelivered decision has its working files removed, as MarkFailed does.
  bucket: 'readwrite',
  writes: ['jobs', 'videos'],
  // 'decide': a preview decision whose hand-over failed is handed over again (redeliver-decision.ts).
  jobs: ['start', 'decide'],
} as const satisfies FunctionNeeds;

export const SWEEP_INTERVAL_MINUTES = 15;

/** Starts a job written but not started, from the table's stream (pipeline/start-written.ts). */
export const JOB_STARTER_FUNCTION = {
  entry: 'functions/handlers/job-starter.ts',
  description: 'starts a video job written but not started (its API process died in between), from the table stream',
  table: 'read',
  bucket: 'none',
  jobs: ['start'],
} as const satisfies FunctionNeeds;

/**
 * Fails the job of an execution that ended FAILED, TIMED_OUT or ABORTED (pipeline/execution-ended.ts),
 * started by an EventBridge rule: what no Catch in the machine can see, an execution timeout above all.
 */
export const EXECUTION_ENDED_FUNCTION = {
  entry: 'functions/handlers/execution-ended.ts',
  description: 'video job safety net: fails the job of an execution that ended failed, timed out or aborted',
  table: 'readwrite',
  bucket: 'readwrite',
  // mark-failed removes the job's working files and a composed video that never got its record.
  writes: ['jobs', 'videos'],
} as const satisfies FunctionNeeds;

/** The ASL Error names a step fails with (errors.ts): Retry matches the first, Catch sends the second to MarkFailed. */
export const RETRYABLE_ERROR = 'Job.Retryable';
export const FINAL_ERROR = 'Job.Failed';

/**
 * The errors of the Lambda service itself that AWS advises retrying: a dropped or timed-out call to
 * the service, an invocation that died without an answer (`Lambda.Unknown`). A throttle is not among
 * them: it has its own, much longer retrier (CAPACITY_RETRIER).
 */
const LAMBDA_TRANSIENT_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.Unknown',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
] as const;

/** Lambda's answer when the function is at its concurrency cap (or the account's): the call never ran. */
export const THROTTLED_ERROR = 'Lambda.TooManyRequestsException';

/** Exponential backoff with full jitter, capped: 2 s, 4 s, 8 s, ... at most 30 s, each drawn from 0 to that. */
const BACKOFF = { IntervalSeconds: 2, BackoffRate: 2, MaxDelaySeconds: 30, JitterStrategy: 'FULL' } as const;

/**
 * A throttled Task waits for capacity instead of failing its job: a burst queues behind the render
 * cap. Backoff 5 s doubling to at most 120 s, with full jitter so that a burst does not come back
 * at once; 64 tries. The longest each try may wait adds up to about two hours, and with the jitter the
 * wait to give up is about an hour (its mean; the sum of 64 uniform draws varies by a few minutes).
 */
const CAPACITY_BACKOFF = { IntervalSeconds: 5, BackoffRate: 2, MaxDelaySeconds: 120, JitterStrategy: 'FULL' } as const;
const CAPACITY_ATTEMPTS = 64;

/** Every Task's first retrier: a throttle is retried for about an hour (CAPACITY_BACKOFF). */
export const CAPACITY_RETRIER = { ErrorEquals: [THROTTLED_ERROR], ...CAPACITY_BACKOFF, MaxAttempts: CAPACITY_ATTEMPTS };

/**
 * How a Task state retries after a throttle. `transient`: Lambda's own hiccups and our retryable
 * errors, a few times (anything else fails the job). `always`: any error, more times, for MarkFailed,
 * which must record the failure.
 */
const RETRY_CLASSES = {
  transient: { errors: [...LAMBDA_TRANSIENT_ERRORS, RETRYABLE_ERROR], maxAttempts: 3 },
  always: { errors: ['States.ALL'], maxAttempts: 5 },
} as const;

type RetryClass = keyof typeof RETRY_CLASSES;

/** The ASL Retry entry of a retry class, exactly as the file must write it (after CAPACITY_RETRIER). */
export const retrierOf = (retry: RetryClass) => ({
  ErrorEquals: [...RETRY_CLASSES[retry].errors],
  ...BACKOFF,
  MaxAttempts: RETRY_CLASSES[retry].maxAttempts,
});

/** The longest the capacity retrier can keep one Task waiting: every backoff at its cap. */
const capacityWaitWorstS = (): number => sumOfBackoffs(CAPACITY_BACKOFF, CAPACITY_ATTEMPTS);

function sumOfBackoffs(backoff: { IntervalSeconds: number; BackoffRate: number; MaxDelaySeconds: number }, attempts: number): number {
  let totalS = 0;
  for (let retry = 0; retry < attempts; retry++) totalS += Math.min(backoff.IntervalSeconds * backoff.BackoffRate ** retry, backoff.MaxDelaySeconds);
  return totalS;
}

/**
 * A Task state outlives its function by this much: the function's own timeout ends a stuck attempt
 * first (the state machine sees the function's error and retries or catches it), so Step Functions
 * never abandons an attempt that is still running and writing.
 */
const TASK_TIMEOUT_MARGIN_S = 30;

/** Where AwaitDecision reads how long it may still wait (ChargePreview writes it: charge-preview.ts). */
export const DECISION_WAIT_PATH = '$.decision_wait.seconds';
/** What ChargePreview's result becomes in the execution's state. */
const DECISION_WAIT_RESULT_PATH = '$.decision_wait';

/**
 * Where a render Task's Catch puts a throttle (`$.capacity.<its state>`), and where AwaitCapacity then
 * writes the wait and the state to go back to, replacing what the Catch put there.
 */
const CAPACITY_RESULT_PATH = '$.capacity';
/** Where WaitForCapacity reads its seconds. */
const CAPACITY_WAIT_PATH = '$.capacity.wait_s';

/**
 * How long AwaitProvider waits for a hosted engine's webhook before GenerateReaction asks the provider
 * itself (docs/decisions.md): longer than the longest generation the provider is given (the fal
 * video limit, FAL_TIMEOUT_S, 600 s), so a request still running at the second look is past its
 * limit and the job fails as timed out instead of waiting again.
 */
export const PROVIDER_WAIT_S = 660;

/**
 * The most AwaitProvider waits one round can have: every provider request of a round (an avatar, the
 * reaction, its speech and its lip-sync, for each of the two seeds a faceless clip allows) ends one
 * wait by its webhook and at most one by the timeout.
 */
const PROVIDER_WAITS_PER_ROUND = 16;

/** Where GenerateReaction says whether it waits on its provider (IsGenerated reads it). */
const GENERATION_RESULT_PATH = '$.generation';

interface StepSpec {
  /** The ASL Task state that sends this step; the job records it as `resume_at` when the step starts. */
  state: JobStateName;
  fn: PipelineFunction;
  retry: RetryClass;
  /**
   * A `.waitForTaskToken` Task: the step stores the token and the execution waits. `decision`: for
   * approve or regenerate, up to the job's one preview deadline (TimeoutSecondsPath,
   * DECISION_WAIT_PATH); `provider`: for a hosted engine's webhook, PROVIDER_WAIT_S at most.
   */
  waitsForToken?: 'decision' | 'provider';
  /** Where the state puts the step's answer, when the machine reads it. */
  resultPath?: string;
}

/** Each `step` value the ASL sends in a Task payload. */
export const PIPELINE_STEPS = {
  prepare: { state: JOB_STATE.Start, fn: 'steps', retry: 'transient' },
  generate_reaction: { state: JOB_STATE.GenerateReaction, fn: 'render', retry: 'transient', resultPath: GENERATION_RESULT_PATH },
  await_provider: { state: JOB_STATE.AwaitProvider, fn: 'steps', waitsForToken: 'provider', retry: 'transient' },
  render_preview: { state: JOB_STATE.RenderPreview, fn: 'render', retry: 'transient' },
  charge_preview: { state: JOB_STATE.ChargePreview, fn: 'steps', retry: 'transient', resultPath: DECISION_WAIT_RESULT_PATH },
  await_decision: { state: JOB_STATE.AwaitDecision, fn: 'steps', waitsForToken: 'decision', retry: 'transient' },
  compose: { state: JOB_STATE.Compose, fn: 'render', retry: 'transient' },
  await_capacity: { state: JOB_STATE.AwaitCapacity, fn: 'steps', retry: 'transient', resultPath: CAPACITY_RESULT_PATH },
  finalize: { state: JOB_STATE.Finalize, fn: 'steps', retry: 'transient' },
  mark_failed: { state: JOB_STATE.MarkFailed, fn: 'steps', retry: 'always' },
} as const satisfies Record<string, StepSpec>;

export type PipelineStep = keyof typeof PIPELINE_STEPS;

/** A calling Task's TimeoutSeconds: its function's timeout and the margin (TASK_TIMEOUT_MARGIN_S). */
export const taskTimeoutS = (step: PipelineStep): number => PIPELINE_FUNCTIONS[PIPELINE_STEPS[step].fn].callBudgetS + TASK_TIMEOUT_MARGIN_S;

/**
 * The shortest wait AwaitDecision is given, for a round that reaches it past the job's deadline: long
 * enough for await_decision's own call (like every Task, longer than its function's timeout), and then
 * the wait ends as expired.
 */
export const DECISION_WAIT_MIN_S = taskTimeoutS('await_decision');

/** The steps one function runs. */
type StepOf<F extends PipelineFunction> = {
  [S in PipelineStep]: (typeof PIPELINE_STEPS)[S]['fn'] extends F ? S : never;
}[PipelineStep];

/** The ASL state each step runs in (what a step records as `resume_at`). */
export const STATE_OF_STEP = Object.fromEntries(
  Object.entries(PIPELINE_STEPS).map(([step, spec]) => [step, spec.state]),
) as { readonly [S in PipelineStep]: (typeof PIPELINE_STEPS)[S]['state'] };

/** The step a Task state sends, if the state is a Task. */
export const stepOfState = (state: string): PipelineStep | undefined =>
  (Object.keys(PIPELINE_STEPS) as PipelineStep[]).find((step) => PIPELINE_STEPS[step].state === state);

/** A step's implementation, over the ports `P` it names; its function's wiring supplies them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any step fits a task map; TaskPorts reads what each one needs.
type StepTask<P = any> = (payload: StepPayload, deps: P, signal?: AbortSignal) => Promise<unknown>;

/** A function's task map: exactly its steps, so a step moved to the other function is a compile error. */
export type TasksOf<F extends PipelineFunction> = { readonly [S in StepOf<F>]: StepTask };

/** Any function's task map, as the dispatch sees it. */
export type StepTasks = { readonly [S in PipelineStep]?: StepTask };

/** The ports a task map's steps reach together: what its function's wiring must supply. */
export type TaskPorts<T> = AllOf<{ [S in keyof T]: T[S] extends (payload: StepPayload, deps: infer P, signal?: AbortSignal) => unknown ? P : never }[keyof T]>;

export type { JobDecision, JobExecutionInput } from '#domain/job-execution';

/** What the state machine's Catch hands to mark_failed. */
export interface TaskFailure {
  Error: string;
  Cause?: string;
}

/** The payload of a Task state (see the ASL's Parameters). */
export interface StepPayload {
  step: PipelineStep;
  account_id: number;
  job_id: number;
  /** await_decision and await_provider only. */
  task_token?: string;
  /** mark_failed only. */
  failure?: TaskFailure;
  /** await_capacity only: what the throttled render Task's Catch put under CAPACITY_RESULT_PATH. */
  throttled?: Record<string, unknown>;
}

/** As much of an ASL definition as the check reads. */
export interface JobDefinition {
  StartAt: string;
  TimeoutSeconds?: number;
  States: Record<
    string,
    {
      Type: string;
      Resource?: string;
      TimeoutSeconds?: number;
      TimeoutSecondsPath?: string;
      ResultPath?: string | null;
      Parameters?: { FunctionName?: string; Payload?: { step?: string } };
      Retry?: Record<string, unknown>[];
      Catch?: { ErrorEquals: string[]; ResultPath?: string | null; Next: string }[];
      SecondsPath?: string;
    }
  >;
}

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

/** The longest one Task can run, retries included: every attempt times out, every throttle waits its longest. */
function worstAttemptsS(step: PipelineStep, timeoutS: number): number {
  const { maxAttempts } = RETRY_CLASSES[PIPELINE_STEPS[step].retry];
  // A throttled try never ran, so it adds its wait and nothing of the timeout.
  const throttledS = PIPELINE_STEPS[step].fn === 'render' ? capacityLoopWorstS() : capacityWaitWorstS();
  return timeoutS * (1 + maxAttempts) + sumOfBackoffs(BACKOFF, maxAttempts) + throttledS;
}

/** The capacity loop gives up at its first turn past the limit: the limit, one more wait, and that turn's AwaitCapacity. */
function capacityLoopWorstS(): number {
  return CAPACITY_WAIT.limitMs / 1000 + CAPACITY_WAIT.maxS + worstAttemptsS('await_capacity', taskTimeoutS('await_capacity'));
}

/**
 * The longest any execution can run, from the table: the longest path is a preview job regenerated
 * to the cap, each round failing every attempt at its timeout, then composed and failing at Finalize.
 * The preview wait counts once, because every AwaitDecision waits only up to the job's one deadline;
 * a round started just before it still renders and charges, then waits DECISION_WAIT_MIN_S. A failed
 * await_decision call is retried within its function's timeout, before the wait proper starts.
 */
export function executionWorstCaseS(): number {
  const calls = (step: PipelineStep) => worstAttemptsS(step, taskTimeoutS(step));
  const decisionRetriesS = worstAttemptsS('await_decision', taskTimeoutS('await_decision')) - taskTimeoutS('await_decision');
  const providerWaitsS = PROVIDER_WAITS_PER_ROUND * (worstAttemptsS('await_provider', PROVIDER_WAIT_S) + calls('generate_reaction'));
  const round = calls('generate_reaction') + providerWaitsS + calls('render_preview') + calls('charge_preview') + DECISION_WAIT_MIN_S + decisionRetriesS;
  const rounds = JOB_LIMITS.maxRegenerations + 1;
  return calls('prepare') + rounds * round + PREVIEW_WAIT_MAX_S + calls('compose') + calls('finalize') + calls('mark_failed');
}

/** Standard workflows run at most a year. */
const EXECUTION_MAX_S = 365 * 24 * 3600;

/**
 * What the ASL file (before substitution) says differently from the table: its states must be
 * JOB_STATE_NAMES, and each Task must send the step of its state, to that step's function, with that
 * step's timeout, retrier and integration; the execution's TimeoutSeconds must outlast every path
 * (executionWorstCaseS), so the timeout that MarkFailed cannot catch never cuts a job short. Empty when
 * they agree. `timeouts: false` leaves the timeouts out (a test's file may shorten them).
 */
export function jobDefinitionProblems(definition: JobDefinition, options: { timeouts?: boolean } = {}): string[] {
  const problems: string[] = [];
  const checkTimeouts = options.timeouts !== false;
  const names = Object.keys(definition.States);
  for (const name of names) {
    if (!(JOB_STATE_NAMES as readonly string[]).includes(name)) problems.push(`state ${name} is not in JOB_STATE_NAMES`);
  }
  for (const name of JOB_STATE_NAMES) if (!names.includes(name)) problems.push(`state ${name} of JOB_STATE_NAMES is missing`);
  if (definition.StartAt !== PIPELINE_STEPS.prepare.state) problems.push(`StartAt is ${definition.StartAt}, not ${PIPELINE_STEPS.prepare.state}`);
  const worstS = executionWorstCaseS();
  const executionS = definition.TimeoutSeconds;
  if (checkTimeouts && (executionS === undefined || executionS <= worstS || executionS > EXECUTION_MAX_S)) {
    problems.push(`the execution's TimeoutSeconds is ${String(executionS)}; it must be above the worst case of ${worstS} s and at most ${EXECUTION_MAX_S}`);
  }

  const sent = new Set<string>();
  for (const [name, state] of Object.entries(definition.States)) {
    const step = stepOfState(name);
    if (state.Type !== 'Task') {
      if (step) problems.push(`state ${name} runs step ${step} but is a ${state.Type}`);
      continue;
    }
    const payloadStep = state.Parameters?.Payload?.step;
    if (!step || payloadStep !== step) {
      problems.push(`Task ${name} sends step ${String(payloadStep)}, the table says ${step ?? 'no step'}`);
      continue;
    }
    sent.add(step);
    const spec: StepSpec = PIPELINE_STEPS[step];
    const functionName = `\${${PIPELINE_FUNCTIONS[spec.fn].substitution}}`;
    if (state.Parameters?.FunctionName !== functionName) {
      problems.push(`Task ${name} invokes ${String(state.Parameters?.FunctionName)}, not the ${spec.fn} function (${functionName})`);
    }
    const resource = spec.waitsForToken ? `${LAMBDA_INVOKE}.waitForTaskToken` : LAMBDA_INVOKE;
    if (state.Resource !== resource) problems.push(`Task ${name} has Resource ${String(state.Resource)}, not ${resource}`);
    problems.push(...capacityProblems(name, spec, state));
    if (spec.resultPath !== undefined && state.ResultPath !== spec.resultPath) {
      problems.push(`Task ${name} has ResultPath ${String(state.ResultPath)}, the table says ${spec.resultPath}`);
    }
    if (spec.waitsForToken === 'decision') {
      if (state.TimeoutSecondsPath !== DECISION_WAIT_PATH || state.TimeoutSeconds !== undefined) {
        problems.push(`Task ${name} must wait TimeoutSecondsPath ${DECISION_WAIT_PATH} (the job's preview deadline) and no TimeoutSeconds`);
      }
    } else if (spec.waitsForToken === 'provider') {
      problems.push(...providerWaitProblems(name, state, checkTimeouts));
    } else if (checkTimeouts && state.TimeoutSeconds !== taskTimeoutS(step)) {
      problems.push(`Task ${name} has TimeoutSeconds ${String(state.TimeoutSeconds)}, the table says ${taskTimeoutS(step)}`);
    }
  }
  for (const step of Object.keys(PIPELINE_STEPS)) if (!sent.has(step)) problems.push(`no Task sends step ${step}`);
  const wait = definition.States[JOB_STATE.WaitForCapacity];
  if (wait && (wait.Type !== 'Wait' || wait.SecondsPath !== CAPACITY_WAIT_PATH)) problems.push(`${JOB_STATE.WaitForCapacity} must be a Wait of SecondsPath ${CAPACITY_WAIT_PATH}`);
  return problems;
}

/**
 * AwaitProvider waits PROVIDER_WAIT_S at most, then goes back to GenerateReaction, which asks the
 * provider by the kept request id: a lost webhook ends there, never in a wait without end.
 */
function providerWaitProblems(name: string, state: JobDefinition['States'][string], checkTimeouts: boolean): string[] {
  const problems: string[] = [];
  if (state.TimeoutSecondsPath !== undefined || (checkTimeouts && state.TimeoutSeconds !== PROVIDER_WAIT_S)) {
    problems.push(`Task ${name} must wait TimeoutSeconds ${PROVIDER_WAIT_S} (PROVIDER_WAIT_S), not a path`);
  }
  const [timeout] = state.Catch ?? [];
  if (timeout?.ErrorEquals.join() !== 'States.Timeout' || timeout.Next !== JOB_STATE.GenerateReaction || timeout.ResultPath !== null) {
    problems.push(`Task ${name} must first catch States.Timeout (ResultPath null) and go back to ${JOB_STATE.GenerateReaction}`);
  }
  return problems;
}

/**
 * A render Task's throttle is caught into the visible capacity loop (AwaitCapacity) under
 * `$.capacity.<state>`, and only other errors are retried; every other Task retries a throttle
 * silently first (CAPACITY_RETRIER), then its class.
 */
function capacityProblems(name: string, spec: StepSpec, state: JobDefinition['States'][string]): string[] {
  const problems: string[] = [];
  const waitsVisibly = spec.fn === 'render';
  const expected = (waitsVisibly ? [retrierOf(spec.retry)] : [CAPACITY_RETRIER, retrierOf(spec.retry)]).map((r) => JSON.stringify(normalisedRetrier(r)));
  const retries = (state.Retry ?? []).map((r) => JSON.stringify(normalisedRetrier(r)));
  if (retries.join() !== expected.join()) {
    problems.push(`Task ${name} retries ${retries.join(', ') || 'nothing'}, the table says ${waitsVisibly ? '' : 'capacity then '}${spec.retry} (${expected.join(', ')})`);
  }
  const [first] = state.Catch ?? [];
  const caught = first?.ErrorEquals.join() === THROTTLED_ERROR && first.ResultPath === `${CAPACITY_RESULT_PATH}.${name}` && first.Next === JOB_STATE.AwaitCapacity;
  if (waitsVisibly && !caught) problems.push(`Task ${name} must first catch ${THROTTLED_ERROR} into ${CAPACITY_RESULT_PATH}.${name} and go to ${JOB_STATE.AwaitCapacity}`);
  if (!waitsVisibly && state.Catch?.some((c) => c.ErrorEquals.includes(THROTTLED_ERROR))) problems.push(`Task ${name} catches ${THROTTLED_ERROR}: only render Tasks wait for capacity in the loop`);
  return problems;
}

/** A retrier with its errors sorted and its keys in one order, so two spellings of the same compare equal. */
function normalisedRetrier(retrier: Record<string, unknown>): Record<string, unknown> {
  const errors = Array.isArray(retrier.ErrorEquals) ? [...(retrier.ErrorEquals as string[])].sort() : retrier.ErrorEquals;
  return Object.fromEntries(Object.entries({ ...retrier, ErrorEquals: errors }).sort(([a], [b]) => a.localeCompare(b)));
}

/** Throws when the ASL file and the table disagree (see jobDefinitionProblems). */
export function checkJobDefinition(definition: JobDefinition, file: string = JOB_STATE_MACHINE_FILE, options: { timeouts?: boolean } = {}): void {
  const problems = jobDefinitionProblems(definition, options);
  if (problems.length > 0) throw new Error(`${file} does not match the pipeline's step table:\n- ${problems.join('\n- ')}`);
}
