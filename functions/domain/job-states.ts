/**
 * The states of the video job state machine (statemachines/video-job.asl.json), by name. A job
 * records the state it is in (`resume_at`) so a restarted local runner re-enters the machine there,
 * and the endpoints that move a job (approve, regenerate, create) write the state it resumes at. Every
 * such name comes from here; a test checks the ASL file has exactly these states.
 */
export const JOB_STATE_NAMES = [
  'Start',
  'GenerateReaction',
  'IsGenerated',
  'AwaitProvider',
  'IsPreview',
  'RenderPreview',
  'ChargePreview',
  'AwaitDecision',
  'Decision',
  'DecisionRefused',
  'PreviewExpired',
  'GenerationTimedOut',
  'AwaitCapacity',
  'WaitForCapacity',
  'ResumeAfterCapacity',
  'Compose',
  'Finalize',
  'MarkFailed',
  'JobFailed',
  'FailureNotRecorded',
] as const;

export type JobStateName = (typeof JOB_STATE_NAMES)[number];

/** `JOB_STATE.Compose` instead of the string, so a renamed state is a compile error. */
export const JOB_STATE = Object.fromEntries(JOB_STATE_NAMES.map((name) => [name, name])) as { readonly [S in JobStateName]: S };
