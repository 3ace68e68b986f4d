/**
 * A job's state in words a person reads at a glance: the API's stage and error codes are for
 * programs. Shared by the job page, the jobs list and the create page's summary.
 */
import type { Job, JobStage } from '#client/types';

const STAGE_WORDS: Record<JobStage, string> = {
  queued: 'Waiting to start',
  preparing: 'Preparing the inputs',
  waiting_for_capacity: 'Waiting for a free renderer (busy right now)',
  generating_reaction: 'Generating the reaction',
  rendering_preview: 'Rendering the preview',
  awaiting_approval: 'Preview ready: waiting for your decision',
  composing: 'Joining the reaction and the demo',
  finalizing: 'Finishing the video',
  done: 'Done',
  failed: 'Failed',
};

const ERROR_HEADINGS: Record<NonNullable<Job['error']>['code'], string> = {
  input_deleted: 'A product, avatar or saved reaction it used was deleted',
  invalid_input: 'An input could not be used',
  content_rejected: 'The content was refused by the generator',
  generation_failed: 'The reaction could not be generated',
  generation_timeout: 'Generating the reaction took too long',
  no_face_in_result: 'The generated reaction showed no face',
  reference_unavailable: 'The reference video could not be fetched',
  render_failed: 'The video could not be rendered',
  preview_expired: 'The preview expired before it was approved',
  timeout: 'The job took too long',
  capacity_unavailable: 'The service was too busy to render it',
  internal_error: 'Something went wrong on our side',
};

export function errorHeading(error: NonNullable<Job['error']>): string {
  return ERROR_HEADINGS[error.code] ?? 'The job failed';
}

/** Final states: nothing changes any more without a person acting. */
export function isSettled(job: Pick<Job, 'status'>): boolean {
  return job.status === 'done' || job.status === 'failed' || job.status === 'preview_ready';
}

export const STATUS_COLOURS: Record<Job['status'], string> = {
  queued: 'gray',
  processing: 'blue',
  preview_ready: 'yellow',
  done: 'green',
  failed: 'red',
};

export const STATUS_WORDS: Record<Job['status'], string> = {
  queued: 'Queued',
  processing: 'Processing',
  preview_ready: 'Preview ready',
  done: 'Done',
  failed: 'Failed',
};

/** Still moving without a person acting: its progress is worth reading. */
const isRunning = (job: Pick<Job, 'status'>) => job.status === 'queued' || job.status === 'processing';

/**
 * The stage in words, how far the job is while it runs, and its place in line when it waits for a
 * render slot (a queue, not a hang): "Generating the reaction · 15%". The job answers one progress for
 * the whole job (each stage starts at its own share of it), not one per stage.
 */
export function progressLine(job: Pick<Job, 'status' | 'stage' | 'progress' | 'queue_position'>): string {
  const parts = [STAGE_WORDS[job.stage]];
  if (isRunning(job)) parts.push(`${job.progress}%`);
  if (job.queue_position) parts.push(`number ${job.queue_position} in line for a render slot`);
  return parts.join(' · ');
}
