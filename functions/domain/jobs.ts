/**
 * Video job rules (API.md §3, DESIGN §2): states, which transitions a client may ask for, and how
 * allowance units are numbered per job. The state machine and the endpoints both follow these.
 */
import { conflict } from './errors';

export const JOB_STATUSES = ['queued', 'processing', 'preview_ready', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JOB_METHODS = ['prompt', 'motion', 'reuse'] as const;
export type JobMethod = (typeof JOB_METHODS)[number];

export const JOB_MODES = ['auto', 'preview'] as const;
export type JobMode = (typeof JOB_MODES)[number];

export const HOOK_POSITIONS = ['top', 'middle', 'bottom'] as const;
export type HookPosition = (typeof HOOK_POSITIONS)[number];

export const HOOK_SIZES = ['small', 'medium', 'large'] as const;
export type HookSize = (typeof HOOK_SIZES)[number];

export const JOB_LIMITS = {
  /** Re-rolls of one preview job (DESIGN §2). */
  maxRegenerations: 20,
  /** A preview not decided on by then fails, releasing nothing (it was charged at preview_ready). */
  previewExpiryDays: 30,
  hookTextMaxChars: 100,
} as const;

export const JOB_DEFAULTS = { mode: 'auto', hookPosition: 'top', hookSize: 'medium' } as const;

/** The job as the rules need it. */
export interface JobState {
  status: JobStatus;
  method: JobMethod;
  mode: JobMode;
  regenerations: number;
}

export const isFinal = (status: JobStatus) => status === 'done' || status === 'failed';

/** approve: only a preview job waiting at preview_ready (else 409 conflict). */
export function assertCanApprove(job: JobState): void {
  if (job.mode !== 'preview') throw conflict('Only preview jobs can be approved; this job runs to the end by itself');
  if (job.status !== 'preview_ready') throw conflict(`The job is ${job.status}; it can be approved only at preview_ready`);
}

/** regenerate: a prompt or motion preview at preview_ready, within the re-roll cap (else 409). */
export function assertCanRegenerate(job: JobState): void {
  if (job.mode !== 'preview') throw conflict('Only preview jobs can be regenerated');
  if (job.method === 'reuse') throw conflict('A reuse job replays a saved reaction: there is nothing to regenerate');
  if (job.status !== 'preview_ready') throw conflict(`The job is ${job.status}; it can be regenerated only at preview_ready`);
  if (job.regenerations >= JOB_LIMITS.maxRegenerations) {
    throw conflict(`This job was regenerated ${JOB_LIMITS.maxRegenerations} times, the most allowed; start a new job`);
  }
}

/**
 * Allowance units of a job are numbered: 1 for the job itself, 2.. for each regeneration, so every
 * unit has its own ledger entry and a retried charge finds the one it already made.
 */
export const chargeNumberOfJob = () => 1;
export const chargeNumberOfRegeneration = (regenerationsBefore: number) => regenerationsBefore + 2;
