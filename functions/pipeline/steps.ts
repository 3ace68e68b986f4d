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
import type { Dependencies } from '#ports/dependencies';
import { JOB_STATE, JOB_STATE_NAMES, type JobStateName } from '#domain/job-states';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';

export const JOB_STATE_MACHINE_FILE = 'statemachines/video-job.asl.json';

export const PIPELINE_FUNCTIONS = {
  steps: {
    entry: 'functions/handlers/job-steps.ts',
    description: 'video job bookkeeping: inputs check, charges, the preview wait, the video record, failures',
    substitution: 'JobStepsFunctionArn',
    table: 'readwrite',
    bucket: 'readwrite',
    // A job's working files; a failed job's output.
    writes: ['jobs', 'videos'],
    timeoutS: 60,
  },
  render: {
    entry: 'functions/handlers/job-render.ts',
    description: 'video job media: reaction generation, the captioned preview, the final composition',
    substitution: 'JobRenderFunctionArn',
    table: 'readwrite',
    bucket: 'readwrite',
    // Clips, previews and references of the job; the finished video and poster.
    writes: ['jobs', 'videos'],
    ffmpeg: true,
    native: true,
    engines: ['reaction'],
    // Six vCPUs for x264 and the frame renderer; /tmp holds the clips (see ephemeral storage in CDK).
    memoryMb: 10240,
    timeoutS: 900,
  },
} as const satisfies Record<string, FunctionNeeds & { substitution: string }>;

export type PipelineFunction = keyof typeof PIPELINE_FUNCTIONS;

/** Releases stranded allowance units and starts jobs written but never started (pipeline/sweeper.ts), on a schedule. */
export const SWEEPER_FUNCTION = {
  entry: 'functions/handlers/sweeper.ts',
  description: 'video job safety net: stranded allowance units, jobs never started',
  table: 'readwrite',
  bucket: 'none',
  jobs: ['start'],
  timeoutS: 300,
} as const satisfies FunctionNeeds;

export const SWEEP_INTERVAL_MINUTES = 15;

/** The ASL Error names a step fails with (errors.ts): Retry matches the first, Catch sends the second to MarkFailed. */
export const RETRYABLE_ERROR = 'Job.Retryable';
export const FINAL_ERROR = 'Job.Failed';

/**
 * How a Task state retries. `transient`: Lambda's own hiccups and our retryable errors, a few times
 * (anything else fails the job). `always`: any error, more times, for MarkFailed, which must record
 * the failure.
 */
const RETRY_CLASSES = {
  transient: {
    errors: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException', RETRYABLE_ERROR],
    maxAttempts: 3,
  },
  always: { errors: ['States.ALL'], maxAttempts: 5 },
} as const;

interface StepSpec {
  /** The ASL Task state that sends this step; the job records it as `resume_at` when the step starts. */
  state: JobStateName;
  fn: PipelineFunction;
  /** The state's TimeoutSeconds. */
  timeoutS: number;
  retry: keyof typeof RETRY_CLASSES;
  /** A `.waitForTaskToken` Task: the step stores the token and the execution waits for a decision. */
  waitsForToken?: true;
}

/** Each `step` value the ASL sends in a Task payload. */
export const PIPELINE_STEPS = {
  prepare: { state: JOB_STATE.Start, fn: 'steps', timeoutS: 60, retry: 'transient' },
  generate_reaction: { state: JOB_STATE.GenerateReaction, fn: 'render', timeoutS: 900, retry: 'transient' },
  render_preview: { state: JOB_STATE.RenderPreview, fn: 'render', timeoutS: 300, retry: 'transient' },
  charge_preview: { state: JOB_STATE.ChargePreview, fn: 'steps', timeoutS: 60, retry: 'transient' },
  await_decision: { state: JOB_STATE.AwaitDecision, fn: 'steps', timeoutS: PREVIEW_WAIT_MAX_S, waitsForToken: true, retry: 'transient' },
  compose: { state: JOB_STATE.Compose, fn: 'render', timeoutS: 600, retry: 'transient' },
  finalize: { state: JOB_STATE.Finalize, fn: 'steps', timeoutS: 60, retry: 'transient' },
  mark_failed: { state: JOB_STATE.MarkFailed, fn: 'steps', timeoutS: 60, retry: 'always' },
} as const satisfies Record<string, StepSpec>;

export type PipelineStep = keyof typeof PIPELINE_STEPS;

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

/** A step's implementation: the ports it reaches come from the runtime's dependencies. */
type StepTask = (payload: StepPayload, deps: Dependencies, signal?: AbortSignal) => Promise<unknown>;

/** A function's task map: exactly its steps, so a step moved to the other function is a compile error. */
export type TasksOf<F extends PipelineFunction> = { readonly [S in StepOf<F>]: StepTask };

/** Any function's task map, as the dispatch sees it. */
export type StepTasks = { readonly [S in PipelineStep]?: StepTask };

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
  /** await_decision only. */
  task_token?: string;
  /** mark_failed only. */
  failure?: TaskFailure;
}

/** As much of an ASL definition as the check reads. */
export interface JobDefinition {
  StartAt: string;
  States: Record<
    string,
    {
      Type: string;
      Resource?: string;
      TimeoutSeconds?: number;
      Parameters?: { FunctionName?: string; Payload?: { step?: string } };
      Retry?: { ErrorEquals: string[]; MaxAttempts?: number }[];
    }
  >;
}

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

/**
 * What the ASL file (before substitution) says differently from the table: its states must be
 * JOB_STATE_NAMES, and each Task must send the step of its state, to that step's function, with that
 * step's timeout and integration. Empty when they agree.
 */
export function jobDefinitionProblems(definition: JobDefinition, options: { timeouts?: boolean } = {}): string[] {
  const problems: string[] = [];
  const names = Object.keys(definition.States);
  for (const name of names) {
    if (!(JOB_STATE_NAMES as readonly string[]).includes(name)) problems.push(`state ${name} is not in JOB_STATE_NAMES`);
  }
  for (const name of JOB_STATE_NAMES) if (!names.includes(name)) problems.push(`state ${name} of JOB_STATE_NAMES is missing`);
  if (definition.StartAt !== PIPELINE_STEPS.prepare.state) problems.push(`StartAt is ${definition.StartAt}, not ${PIPELINE_STEPS.prepare.state}`);

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
    const retry = RETRY_CLASSES[spec.retry];
    const retries = (state.Retry ?? []).map((r) => `${[...r.ErrorEquals].sort().join('|')} x${r.MaxAttempts ?? 3}`);
    const expected = `${[...retry.errors].sort().join('|')} x${retry.maxAttempts}`;
    if (retries.length !== 1 || retries[0] !== expected) problems.push(`Task ${name} retries ${retries.join(', ') || 'nothing'}, the table says ${spec.retry} (${expected})`);
    if (options.timeouts !== false && state.TimeoutSeconds !== spec.timeoutS) {
      problems.push(`Task ${name} has TimeoutSeconds ${String(state.TimeoutSeconds)}, the table says ${spec.timeoutS}`);
    }
  }
  for (const step of Object.keys(PIPELINE_STEPS)) if (!sent.has(step)) problems.push(`no Task sends step ${step}`);
  return problems;
}

/** Throws when the ASL file and the table disagree (see jobDefinitionProblems). */
export function checkJobDefinition(definition: JobDefinition, file: string = JOB_STATE_MACHINE_FILE, options: { timeouts?: boolean } = {}): void {
  const problems = jobDefinitionProblems(definition, options);
  if (problems.length > 0) throw new Error(`${file} does not match the pipeline's step table:\n- ${problems.join('\n- ')}`);
}
