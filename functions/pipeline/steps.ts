/**
 * The job pipeline's Task steps and the two Lambda functions that run them: light bookkeeping steps
 * in one small function, generation and ffmpeg work in one big one. The ASL file
 * (`statemachines/video-job.asl.json`) names each function through a substitution variable; CDK and
 * the local runner both read this module to fill them in, so the three cannot drift apart.
 */
import type { FunctionNeeds } from '#functions/routes';

export const JOB_STATE_MACHINE_FILE = 'statemachines/video-job.asl.json';

export const PIPELINE_FUNCTIONS = {
  steps: {
    entry: 'functions/handlers/job-steps.ts',
    description: 'video job bookkeeping: inputs check, charges, the preview wait, the video record, failures',
    substitution: 'JobStepsFunctionArn',
    table: 'readwrite',
    bucket: 'readwrite',
    timeoutS: 60,
  },
  render: {
    entry: 'functions/handlers/job-render.ts',
    description: 'video job media: reaction generation, the captioned preview, the final composition',
    substitution: 'JobRenderFunctionArn',
    table: 'readwrite',
    bucket: 'readwrite',
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

/** Each `step` value the ASL sends in a Task payload, and the function that runs it. */
export const PIPELINE_STEPS = {
  prepare: 'steps',
  generate_reaction: 'render',
  render_preview: 'render',
  charge_preview: 'steps',
  await_decision: 'steps',
  compose: 'render',
  finalize: 'steps',
  mark_failed: 'steps',
} as const satisfies Record<string, PipelineFunction>;

export type PipelineStep = keyof typeof PIPELINE_STEPS;

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

/**
 * The ASL state each step runs in. Steps record it on the job as they start, so a restarted local
 * runner re-enters the machine where the job was (DESIGN §1), and an operator can see it.
 */
export const STATE_OF_STEP: Record<PipelineStep, string> = {
  prepare: 'Start',
  generate_reaction: 'GenerateReaction',
  render_preview: 'RenderPreview',
  charge_preview: 'ChargePreview',
  await_decision: 'AwaitDecision',
  compose: 'Compose',
  finalize: 'Finalize',
  mark_failed: 'MarkFailed',
};
