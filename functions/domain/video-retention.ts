/**
 * How long a finished video's files are kept (docs/decisions.md, Video retention). Storage cannot read
 * the table, so each file is tagged with its retention class when it is written, and the media
 * bucket has one lifecycle rule per class (lib/cloud/media.ts, from `retentionClasses`). The record
 * keeps the same numbers, so the API tells an expired video by its record, not by a missing file.
 */
import { AppError } from './errors';
import { PLAN_NAMES, planOf, type PlanName } from './plans';

/** The object tag a lifecycle rule selects on. */
export const RETENTION_TAG = 'retention';

export interface VideoRetention {
  /** The tag's value, e.g. `days-30`: one lifecycle rule each. */
  retentionClass: string;
  days: number;
}

const retentionOfDays = (days: number): VideoRetention => ({ retentionClass: `days-${days}`, days });

/** The retention a video made under `plan` gets, fixed when it is written (a later plan change leaves it). */
export const retentionOfPlan = (plan: PlanName): VideoRetention => retentionOfDays(planOf(plan).videoRetentionDays);

/** Every class the plans use, once each, shortest first. */
export function retentionClasses(): VideoRetention[] {
  const days = [...new Set(PLAN_NAMES.map((name) => planOf(name).videoRetentionDays))].sort((a, b) => a - b);
  return days.map(retentionOfDays);
}

/** The object tags a file of that retention is written with. */
export const retentionTags = (retention: VideoRetention): Record<string, string> => ({ [RETENTION_TAG]: retention.retentionClass });

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When lifecycle may remove a file written at `writtenAt`: S3 adds the rule's days to the object's
 * creation time and rounds up to the next midnight UTC. S3 removes it some time after that (usually
 * within a day); from that moment on the API treats the video as expired, whether or not the bytes
 * are already gone, so every client sees the same answer.
 */
export function fileExpiry(writtenAt: Date, days: number): Date {
  const due = writtenAt.getTime() + days * DAY_MS;
  return new Date((Math.floor(due / DAY_MS) + 1) * DAY_MS);
}

/** Whether a video's file is past its retention; a video written before retention (no `file_expires_at`) is kept until deleted. */
export const isVideoExpired = (video: { file_expires_at?: string }, now: Date): boolean =>
  typeof video.file_expires_at === 'string' && now.getTime() >= Date.parse(video.file_expires_at);

/**
 * Refuses a video whose file is past retention (410 video_expired): fetching it (for fresh links) and
 * publishing it. The message says when and under which retention, since the client cannot undo it.
 */
export function requireKeptFile(video: { id: number; file_expires_at?: string; retention_days?: number }, now: Date): void {
  if (!isVideoExpired(video, now)) return;
  const kept = video.retention_days === undefined ? '' : ` (kept ${video.retention_days} days under the plan it was made with)`;
  throw new AppError('video_expired', `Video ${video.id}'s file expired at ${video.file_expires_at}${kept}; its record stays listed with expired: true until deleted`);
}
