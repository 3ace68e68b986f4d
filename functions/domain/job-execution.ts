/**
 * What the job's execution carries beside the job's public fields: the state machine's input, the
 * decisions a waiting preview receives, and the pipeline's bookkeeping on the stored record. Both the
 * endpoints (which start and resume executions) and the pipeline (which runs them) speak these.
 */
import { jobObjectKeys, type Job } from './jobs';
import type { JobTake } from './takes';
import type { CapacityWait } from './capacity-wait';
import type { VideoRequest } from './schemas/video';
import { JOB_STATE } from './job-states';
import type { ProviderWait } from './provider-wait';

/** The execution input: what every state can read. */
export interface JobExecutionInput {
  account_id: number;
  job_id: number;
  job: { mode: 'auto' | 'preview'; method: 'prompt' | 'motion' | 'reuse' };
}

/** What approve and regenerate send back through the task token. */
export type JobDecision = { action: 'approve' } | { action: 'regenerate'; regenerations: number };

/** What a provider's webhook sends back through AwaitProvider's token: only that the execution may go on. */
export interface ProviderReady {
  action: 'provider_ready';
}

export interface HandedDecision {
  token: string;
  decision: JobDecision;
  /** When it was recorded (ISO 8601). */
  at: string;
}

/** Pipeline bookkeeping kept beside the job's public fields. */
interface JobInternals {
  /** The pending AwaitDecision's task token, while the job waits at preview_ready. */
  task_token?: string | null;
  /**
   * A preview decision on its way to the waiting execution: set by the write that records it, cleared
   * when a step of the resumed execution starts. One still set minutes later did not arrive (the
   * runner was unreachable and the undo failed too); the sweeper hands it over again.
   */
  handed_decision?: HandedDecision | null;
  /** The ASL state the job is in (see STATE_OF_STEP). */
  resume_at?: string | null;
  /** The composed video, uploaded under its id, waiting for Finalize to record it. */
  output?: JobOutput | null;
  /**
   * The one moment a preview job stops waiting for a decision: fixed when its first preview is ready
   * (ChargePreview) and kept through every regeneration, so re-rolls never extend the wait.
   */
  preview_deadline?: string | null;
  /**
   * Every preview the job showed, oldest first (domain/takes.ts): RenderPreview records each, and
   * approve composes the one it names. Absent on records written before takes, and on auto jobs.
   */
  takes?: JobTake[] | null;
  /** A wait for render capacity in progress (domain/capacity-wait.ts); cleared when a step starts. */
  capacity_wait?: CapacityWait | null;
  /**
   * The hosted engine's requests of the current round, by slot (ports/engine.ts ProviderRequestLog):
   * a GenerateReaction retried after its process died waits for them instead of paying again.
   */
  provider_requests?: KeptProviderRequests | null;
  /** The round's wait on its hosted engine by callback (domain/provider-wait.ts). */
  provider_wait?: ProviderWait | null;
}

/** Requests of one round only: a regenerated round is new work and never reattaches to the last one. */
export interface KeptProviderRequests {
  round: number;
  slots: Record<string, { requestId: string; statusUrl: string; responseUrl: string; cancelUrl: string; submittedAt?: string }>;
}

interface JobOutput {
  video_id: number;
  key: string;
  poster_key: string;
  duration_s: number;
  size_bytes: number;
  /** The retention its files were tagged with, and when lifecycle removes them (domain/video-retention.ts); absent on jobs composed before retention. */
  retention_days?: number;
  file_expires_at?: string;
}

export type StoredJob = Job & JobInternals;

export const executionInputOf = (job: Pick<Job, 'account_id' | 'id' | 'mode' | 'method'>): JobExecutionInput => ({
  account_id: job.account_id,
  job_id: job.id,
  job: { mode: job.mode, method: job.method },
});

/** A new job as POST /videos (or a variant of POST /videos/batch) records it: queued at the machine's start, nothing charged yet. */
export function newJob(accountId: number, id: number, request: VideoRequest, referenceKey: string | null, seed: number, now: Date, batchId: number | null = null): StoredJob {
  const at = now.toISOString();
  return {
    id,
    account_id: accountId,
    status: 'queued',
    stage: 'queued',
    progress: 0,
    method: request.method,
    mode: request.mode,
    product_id: request.productId,
    avatar_id: request.avatarId,
    reaction_id: request.reactionId,
    prompt: request.prompt,
    video_source: request.videoSource,
    reference_url: request.referenceUrl,
    reference_key: referenceKey,
    hook_text: request.hookText,
    hook_position: request.hookPosition,
    hook_size: request.hookSize,
    hook_style: request.hookStyle,
    hook_duration: request.hookDuration,
    sound: request.sound,
    music_id: request.musicId,
    voice_line: request.voiceLine,
    seed,
    regenerations: 0,
    charged_units: 0,
    reaction: null,
    preview: null,
    preview_expires_at: null,
    video_id: null,
    error: null,
    batch_id: batchId,
    created_at: at,
    updated_at: at,
    task_token: null,
    resume_at: JOB_STATE.Start,
    output: null,
  };
}

/**
 * Where a regenerate's new reference clip (uploaded, or fetched from its link) goes: beside its
 * round's files, and apart from any other request's (`nonce`), because concurrent regenerates all
 * store theirs before one of them wins the round; a loser that removes its clip must not remove the
 * winner's, nor overwrite it.
 */
export const regenerateReferenceKey = (accountId: number, jobId: number, round: number, nonce: string) =>
  `${jobObjectKeys(accountId, jobId, round).reference}-${nonce}`;
