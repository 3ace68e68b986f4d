/** A saved reaction: a job's reaction clip kept in the account's library for reuse. */
import type { FrameBox, JobMethod } from './jobs';
import { isTestScope } from './test-mode';

export interface SavedReaction {
  id: number;
  account_id: number;
  job_id: number;
  method: Exclude<JobMethod, 'reuse'> | 'reuse';
  avatar_id: number | null;
  prompt: string | null;
  /** The uncaptioned clip (canonical encoding): each reuse captions it with its own hook. */
  clip_key: string;
  duration_s: number;
  emotion: string | null;
  /** Where the clip's face is (the job's reaction.face_box), so each reuse's caption keeps clear of it; absent when unknown. */
  face_box?: FrameBox | null;
  created_at: string;
}

export interface SavedReactionView {
  id: number;
  job_id: number;
  method: SavedReaction['method'];
  avatar_id: number | null;
  prompt: string | null;
  clip_url: string;
  clip_url_expires_at: string;
  duration_s: number;
  emotion: string | null;
  test: boolean;
  created_at: string;
}

export function savedReactionView(reaction: SavedReaction, clip: { url: string; expiresAt: string }): SavedReactionView {
  return {
    id: reaction.id,
    job_id: reaction.job_id,
    method: reaction.method,
    avatar_id: reaction.avatar_id,
    prompt: reaction.prompt,
    clip_url: clip.url,
    clip_url_expires_at: clip.expiresAt,
    duration_s: reaction.duration_s,
    emotion: reaction.emotion,
    test: isTestScope(reaction.account_id),
    created_at: reaction.created_at,
  };
}

export const reactionObjectPrefix = (accountId: number, reactionId: number) => `accounts/${accountId}/reactions/${reactionId}/`;
export const reactionClipKey = (accountId: number, reactionId: number) => `${reactionObjectPrefix(accountId, reactionId)}clip.mp4`;
