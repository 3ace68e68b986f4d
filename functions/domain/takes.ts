/**
 * Takes (docs/decisions.md, Takes): every preview a preview job shows is a take, numbered from 1 in
 * the order they were made. A regenerate makes the next take and keeps the earlier ones, whose files
 * stay with the job's working files until the job ends; approve composes the finished video from the
 * take it names, the newest by default. An auto job shows no preview, so it has no takes.
 */
import { badRequest, conflict } from './errors';
import { hookOfJob, isFinal, soundOfJob, type Job, type JobPreview, type JobReaction } from './jobs';

/** The job's inputs that made a take: what approving that take puts back on the job. */
type TakeOptions = Pick<Job, 'prompt' | 'avatar_id' | 'video_source' | 'reference_url' | 'reference_key' | 'hook_text' | 'hook_position' | 'hook_size'> &
  Required<Pick<Job, 'hook_style' | 'hook_duration' | 'sound' | 'music_id' | 'voice_line'>>;

export interface JobTake {
  /** 1 for the first preview, then one more per regenerate. */
  take: number;
  reaction: JobReaction;
  preview: JobPreview;
  options: TakeOptions;
  /** When its preview was made (ISO 8601). */
  created_at: string;
}

/** What a take's fields are read from: the job as its round left it. */
type TakeSource = Pick<Job, keyof TakeOptions | 'regenerations' | 'reaction' | 'preview' | 'updated_at'> & { takes?: readonly JobTake[] | null };

/** The take a round makes: round 0 (the first preview) is take 1, a job's n-th regeneration take n+1. */
export const takeNumberOfRound = (regenerations: number) => regenerations + 1;

/** The take the job's current round shows, from its reaction and preview and the inputs that made them. */
export function takeOfRound(job: TakeSource, reaction: JobReaction, preview: JobPreview, at: string): JobTake {
  const hook = hookOfJob(job);
  const sound = soundOfJob(job);
  return {
    take: takeNumberOfRound(job.regenerations),
    reaction,
    preview,
    options: {
      prompt: job.prompt,
      avatar_id: job.avatar_id,
      video_source: job.video_source,
      reference_url: job.reference_url,
      reference_key: job.reference_key,
      hook_text: job.hook_text,
      hook_position: job.hook_position,
      hook_size: job.hook_size,
      hook_style: hook.style,
      hook_duration: hook.duration,
      sound: sound.sound,
      music_id: sound.musicId,
      voice_line: sound.voiceLine,
    },
    created_at: at,
  };
}

/**
 * The job's takes, oldest first. A job that showed its preview before takes were recorded has that
 * preview as its one take (under its round's number); the previews it showed before it were not kept.
 */
export function takesOf(job: TakeSource): JobTake[] {
  const recorded = [...(job.takes ?? [])];
  const shown = job.reaction && job.preview ? takeOfRound(job, job.reaction, job.preview, job.updated_at) : null;
  if (shown && !recorded.some((take) => take.take === shown.take)) recorded.push(shown);
  return recorded.sort((a, b) => a.take - b.take);
}

/** The takes with `take` in its place: a retried preview step records its take once, under its own number. */
export const withTake = (job: TakeSource, take: JobTake): JobTake[] =>
  [...takesOf(job).filter((kept) => kept.take !== take.take), take].sort((a, b) => a.take - b.take);

/** The take approve composes: the one named, or the newest. A number the job has no take under is 400 naming `take`. */
export function chosenTake(job: TakeSource, requested: number | undefined): JobTake {
  const takes = takesOf(job);
  const newest = takes.at(-1);
  // Unreachable at preview_ready (RenderPreview records the take before the job waits), but never approve nothing.
  if (!newest) throw conflict('The job has no preview to approve yet; retry when it is preview_ready');
  if (requested === undefined) return newest;
  const found = takes.find((take) => take.take === requested);
  if (!found) throw badRequest(`Invalid approve request: the job has no take ${requested}; its takes are ${rangeOf(takes)} (GET /videos/jobs/{id}/takes)`, 'take');
  return found;
}

const rangeOf = (takes: readonly JobTake[]) => (takes.length === 1 ? `${takes[0]!.take}` : `${takes[0]!.take} to ${takes.at(-1)!.take}`);

/** The job as approving `take` leaves it: that take's clip, preview and inputs, so Compose makes the video the take previewed. */
export const changesOfChosenTake = (take: JobTake) => ({ reaction: take.reaction, preview: take.preview, ...take.options });

/**
 * The take the job stands on: the one it shows at preview_ready, the one it composes once approved.
 * None while a regenerate is making the next one.
 */
export const isCurrentTake = (job: Pick<Job, 'reaction'>, take: JobTake) => job.reaction?.key === take.reaction.key;

/** A take's files are the job's working files: there while the job runs, removed when it ends. */
export const takeFilesKept = (job: Pick<Job, 'status'>) => !isFinal(job.status);

/** What clients see of a take: its inputs without storage keys, and its preview's links while they play. */
export interface TakeView {
  take: number;
  current: boolean;
  preview_url: string | null;
  preview_url_expires_at: string | null;
  preview_still_url: string | null;
  duration_s: number;
  options: Omit<TakeOptions, 'reference_key'>;
  created_at: string;
}

export function takeView(take: JobTake, current: boolean, preview?: { url: string; expiresAt: string; stillUrl?: string | null }): TakeView {
  const { reference_key: _storage, ...options } = take.options;
  return {
    take: take.take,
    current,
    preview_url: preview?.url ?? null,
    preview_url_expires_at: preview?.expiresAt ?? null,
    preview_still_url: preview?.stillUrl ?? null,
    duration_s: take.preview.duration_s,
    options,
    created_at: take.created_at,
  };
}
