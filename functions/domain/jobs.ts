/**
 * Video job rules (docs/decisions.md, Video jobs): states, which transitions a client may ask for, and how
 * allowance units are numbered per job. The state machine and the endpoints both follow these.
 */
import { conflict } from './errors';
import { SOUND_DEFAULTS, type SoundMode } from './sound';
import { isTestScope } from './test-mode';

export const JOB_STATUSES = ['queued', 'processing', 'preview_ready', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What each status tells a client polling the job (the API description shows them beside the values). */
export const JOB_STATUS_MEANINGS: Readonly<Record<JobStatus, string>> = {
  queued: 'Accepted, waiting for its first step (again after a regenerate)',
  processing: 'A step is running (`stage` says which, `progress` how far)',
  preview_ready: 'A preview job stopped at its preview (`preview_url`): approve it or regenerate it before `preview_expires_at`',
  done: 'Finished: `video_id` names the video (GET /videos/{id})',
  failed: 'Ended without a video: `error` says why; units still reserved for it are released',
};

export const JOB_METHODS = ['prompt', 'motion', 'reuse'] as const;
export type JobMethod = (typeof JOB_METHODS)[number];

export const JOB_MODES = ['auto', 'preview'] as const;
export type JobMode = (typeof JOB_MODES)[number];

export const HOOK_POSITIONS = ['top', 'middle', 'bottom'] as const;
type HookPosition = (typeof HOOK_POSITIONS)[number];

export const HOOK_SIZES = ['small', 'medium', 'large'] as const;
type HookSize = (typeof HOOK_SIZES)[number];

/** How the caption looks (docs/decisions.md, Captions); `outline` is how every caption looked before styles. */
export const HOOK_STYLES = ['outline', 'box', 'highlight', 'glow', 'bold_caps'] as const;
type HookStyle = (typeof HOOK_STYLES)[number];

/** How long the caption stays: over the reaction only, or over the demo too (which re-encodes the demo). */
export const HOOK_DURATIONS = ['reaction', 'full'] as const;
type HookDuration = (typeof HOOK_DURATIONS)[number];

export const JOB_LIMITS = {
  /** Re-rolls of one preview job: each costs a unit, so the cap bounds what one job can spend. */
  maxRegenerations: 20,
  /** A preview not decided on by then fails, releasing nothing (it was charged at preview_ready). */
  previewExpiryDays: 30,
  hookTextMaxChars: 100,
} as const;

export const JOB_DEFAULTS = { mode: 'auto', hookPosition: 'top', hookSize: 'medium', hookStyle: 'outline', hookDuration: 'reaction' } as const;

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

/**
 * Where a job is, for clients polling it. Each stage has the progress it starts at; progress is only
 * ever raised (a regenerated preview keeps the progress it had), so a client's bar never goes back.
 */
export const JOB_STAGES = {
  queued: 0,
  preparing: 5,
  // A render step refused for capacity waits here (domain/capacity-wait.ts); progress keeps what it had.
  waiting_for_capacity: 5,
  generating_reaction: 15,
  rendering_preview: 60,
  awaiting_approval: 70,
  composing: 80,
  finalizing: 95,
  done: 100,
  failed: 100,
} as const;
export type JobStage = keyof typeof JOB_STAGES;

/** What each stage is doing; `progress` starts at the stage's figure in JOB_STAGES. */
export const JOB_STAGE_MEANINGS: Readonly<Record<JobStage, string>> = {
  queued: 'Waiting to start (progress 0)',
  preparing: 'Checking that the product, the avatar or the saved reaction it uses still exist (5)',
  waiting_for_capacity: 'A render step was refused because the service is busy; it is tried again shortly, for up to an hour (progress unchanged)',
  generating_reaction: 'The engine makes the reaction clip (15)',
  rendering_preview: 'The caption is drawn over the reaction for the preview (60)',
  awaiting_approval: 'The preview is shown: waiting for approve or regenerate (70)',
  composing: 'The captioned reaction and the demo are joined, with the sound (80)',
  finalizing: 'The video and its poster are stored and the job charged (95)',
  done: 'The video is ready (100)',
  failed: 'The job ended failed (100)',
};

/** Failure codes a job can end with (`error.code`), each with what the user can do about it. */
export const JOB_ERROR_CODES = {
  input_deleted: 'A product, avatar or saved reaction the job uses was deleted while it ran; create a new job',
  invalid_input: 'An input could not be used (for example no usable face, or an unreadable reference clip)',
  content_rejected: 'The generation provider refused the content; change the prompt or the reference',
  generation_failed: 'The reaction could not be generated after retries; try again later',
  generation_timeout: 'Generating the reaction took longer than allowed; try again later',
  no_face_in_result: 'The generated reaction showed no face, also on a second try; nothing was charged. Try again, or change the prompt or the avatar',
  reference_unavailable: 'The reference clip could not be downloaded from its link',
  render_failed: 'The video could not be rendered; try again, and report the job id if it persists',
  preview_expired: 'The preview was not approved or regenerated in time; create a new job',
  timeout: 'A pipeline step took longer than allowed; try again later',
  capacity_unavailable: 'The service had no render capacity for an hour; nothing was charged for the unfinished video. Try again later',
  internal_error: 'Something failed on our side; try again, and report the job id if it persists',
} as const;
export type JobErrorCode = keyof typeof JOB_ERROR_CODES;

export interface JobError {
  code: JobErrorCode;
  message: string;
}

/** A rectangle on the 1080x1920 frame, in pixels. */
export interface FrameBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CaptionSpec {
  text: string;
  position: HookPosition;
  size: HookSize;
  /** Absent on records written before styles: outline. */
  style?: HookStyle;
  /** The face's eyes-to-mouth box over the clip, which the caption keeps clear of; null when unknown. */
  avoid?: FrameBox | null;
}

/** The reaction clip of the current round (a generation, or the saved clip of a reuse job). */
export interface JobReaction {
  key: string;
  duration_s: number;
  emotion: string | null;
  engine: string;
  seed: number;
  /** Seconds into the clip where the expression peaks (the poster's frame); absent when the engine does not know. */
  peak_s?: number | null;
  /** The engine spoke the job's voice line: the clip's own audio is the voice, mixed under the reaction's sound. */
  voice?: boolean;
  /** The caption the engine burnt in (auto jobs), making the clip the finished segment; null if clean. */
  captioned?: CaptionSpec | null;
  /**
   * The face's eyes-to-mouth box over the whole clip, as the engine drew it (the union of every
   * frame's): captions drawn later (the preview, an approve's new caption) keep clear of it. Null or
   * absent when the engine does not know where the face is.
   */
  face_box?: FrameBox | null;
  /** The finished video's poster, made by the engine with the clip (auto jobs); Compose copies it. */
  poster_key?: string | null;
}

/** The captioned reaction segment made for the preview; approve reuses it when the caption is unchanged. */
export interface JobPreview {
  key: string;
  duration_s: number;
  caption: CaptionSpec | null;
  /**
   * The bare reaction at its peak (JPEG): the frame a client draws a changed caption over before it
   * approves. Absent for a clip that came with its caption burnt in, and for previews made before it.
   */
  still_key?: string | null;
}

export interface Job {
  id: number;
  account_id: number;
  status: JobStatus;
  stage: JobStage;
  progress: number;
  method: JobMethod;
  mode: JobMode;
  product_id: number;
  avatar_id: number | null;
  reaction_id: number | null;
  prompt: string | null;
  video_source: 'link' | 'upload' | null;
  reference_url: string | null;
  /** The reference clip in the blob store (an upload, or the link once downloaded). */
  reference_key: string | null;
  hook_text: string | null;
  hook_position: HookPosition;
  hook_size: HookSize;
  /** Absent on records written before caption styles: read them with hookOfJob. */
  hook_style?: HookStyle;
  hook_duration?: HookDuration;
  /** Absent on records written before sound existed: read them with soundOfJob. */
  sound?: SoundMode;
  music_id?: string | null;
  voice_line?: string | null;
  /** Seed of the next generation; a regeneration draws a new one. */
  seed: number;
  regenerations: number;
  charged_units: number;
  reaction: JobReaction | null;
  preview: JobPreview | null;
  preview_expires_at: string | null;
  video_id: number | null;
  error: JobError | null;
  /**
   * The job's place in line for a render slot while it waits for one (1 = next), null otherwise; a
   * client can tell a queue from a hang. Absent on records written before it existed.
   */
  queue_position?: number | null;
  /** The batch (POST /videos/batch) the job was made in; null or absent for a job made alone. */
  batch_id?: number | null;
  created_at: string;
  updated_at: string;
}

/** The unit a job's current round is reserved under: 1, then one more per regeneration. */
export const currentChargeNumber = (job: Pick<Job, 'regenerations'>) =>
  job.regenerations === 0 ? chargeNumberOfJob() : chargeNumberOfRegeneration(job.regenerations - 1);

/** The caption's style and duration, with the defaults for records written before they existed. */
export const hookOfJob = (job: Pick<Job, 'hook_style' | 'hook_duration'>) => ({
  style: job.hook_style ?? JOB_DEFAULTS.hookStyle,
  duration: job.hook_duration ?? JOB_DEFAULTS.hookDuration,
});

/** The job's caption as it is drawn: kept clear of the face of the current reaction when its engine said where that is. */
export const captionOf = (job: Pick<Job, 'hook_text' | 'hook_position' | 'hook_size' | 'hook_style' | 'reaction'>): CaptionSpec | null =>
  job.hook_text
    ? { text: job.hook_text, position: job.hook_position, size: job.hook_size, style: job.hook_style ?? JOB_DEFAULTS.hookStyle, avoid: job.reaction?.face_box ?? null }
    : null;

export const soundOfJob = (job: Pick<Job, 'sound' | 'music_id' | 'voice_line'>) => ({
  sound: job.sound ?? SOUND_DEFAULTS.sound,
  musicId: job.music_id ?? null,
  voiceLine: job.voice_line ?? null,
});

/** Whether two captions draw the same pixels: the same words, place, size and style over the same face. */
export const sameCaption = (a: CaptionSpec | null, b: CaptionSpec | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.text === b.text &&
    a.position === b.position &&
    a.size === b.size &&
    (a.style ?? JOB_DEFAULTS.hookStyle) === (b.style ?? JOB_DEFAULTS.hookStyle) &&
    sameBox(a.avoid ?? null, b.avoid ?? null));

const sameBox = (a: FrameBox | null, b: FrameBox | null) =>
  a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);

export const jobObjectPrefix = (accountId: number, jobId: number) => `accounts/${accountId}/jobs/${jobId}/`;

/** Object keys of one round (`round` = regenerations so far), so a retry overwrites its own files only. */
/**
 * Where in a segment of `segmentDurationS` the reaction peaks (the poster's and the preview still's
 * frame; the segment keeps the clip's timeline), or null when the engine does not know or the peak
 * falls outside it: the caller then cuts at the composer's default.
 */
export const peakWithin = (reaction: Pick<JobReaction, 'peak_s'>, segmentDurationS: number): number | null =>
  reaction.peak_s != null && reaction.peak_s < segmentDurationS ? reaction.peak_s : null;

export const jobObjectKeys = (accountId: number, jobId: number, round: number) => {
  const prefix = jobObjectPrefix(accountId, jobId);
  return {
    reference: `${prefix}reference-${round}`,
    reaction: `${prefix}reaction-${round}.mp4`,
    preview: `${prefix}preview-${round}.mp4`,
    previewStill: `${prefix}preview-still-${round}.jpg`,
    poster: `${prefix}poster-${round}.jpg`,
  };
};

/** What clients see: the record without the pipeline's own fields, plus the preview's playable link. */
export type JobView = Pick<
  Job,
  | 'id' | 'status' | 'stage' | 'progress' | 'method' | 'mode' | 'product_id' | 'avatar_id' | 'reaction_id' | 'prompt'
  | 'video_source' | 'reference_url' | 'hook_text' | 'hook_position' | 'hook_size' | 'preview_expires_at' | 'video_id'
  | 'charged_units' | 'regenerations' | 'error' | 'created_at' | 'updated_at'
> & { hook_style: HookStyle; hook_duration: HookDuration } & { sound: SoundMode; music_id: string | null; voice_line: string | null } & { preview_url: string | null; preview_url_expires_at: string | null; preview_still_url: string | null; queue_position: number | null; batch_id: number | null; test: boolean };

export function jobView(job: Job, preview?: { url: string; expiresAt: string; stillUrl?: string | null }): JobView {
  const showPreview = job.status === 'preview_ready' && preview;
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    progress: job.progress,
    queue_position: isFinal(job.status) ? null : (job.queue_position ?? null),
    method: job.method,
    mode: job.mode,
    product_id: job.product_id,
    avatar_id: job.avatar_id,
    reaction_id: job.reaction_id,
    prompt: job.prompt,
    video_source: job.video_source,
    reference_url: job.reference_url,
    hook_text: job.hook_text,
    hook_position: job.hook_position,
    hook_size: job.hook_size,
    ...(({ style, duration }) => ({ hook_style: style, hook_duration: duration }))(hookOfJob(job)),
    ...(({ sound, musicId, voiceLine }) => ({ sound, music_id: musicId, voice_line: voiceLine }))(soundOfJob(job)),
    preview_url: showPreview ? preview.url : null,
    preview_url_expires_at: showPreview ? preview.expiresAt : null,
    preview_still_url: showPreview ? (preview.stillUrl ?? null) : null,
    preview_expires_at: job.status === 'preview_ready' ? job.preview_expires_at : null,
    video_id: job.video_id,
    // A test job's units sit in its scope's own ledger, which nothing bills or limits (domain/test-mode).
    charged_units: isTestScope(job.account_id) ? 0 : job.charged_units,
    regenerations: job.regenerations,
    error: job.error,
    batch_id: job.batch_id ?? null,
    test: isTestScope(job.account_id),
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
}
