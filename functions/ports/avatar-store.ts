/** Avatars, listed whole and capped per plan. */
import type { Avatar } from '#domain/avatar';
import type { WebhookEvent } from '#domain/webhooks';
import { AppError } from '#domain/errors';
import { CHANGE_PLAN_HINT } from '#domain/plans';

export type AvatarOutcome = Pick<Avatar, 'status' | 'image_key' | 'width' | 'height' | 'engine' | 'seed' | 'error'> & { rig?: unknown };

export interface AvatarStore {
  newAvatarId(): Promise<number>;
  /** Refuses with `avatarsFull(cap)` when the account already has `cap`, however many creates race. */
  create(avatar: Avatar, cap: number): Promise<void>;
  /** The avatars counted against the cap. */
  count(accountId: number): Promise<number>;
  get(accountId: number, avatarId: number): Promise<Avatar | undefined>;
  /** The whole set, newest first. */
  list(accountId: number): Promise<Avatar[]>;
  /** The deleted record (its objects are the caller's to remove), or undefined when there was none. */
  delete(accountId: number, avatarId: number): Promise<Avatar | undefined>;
  /**
   * Records a finished (or failed) generation only while the avatar exists and is processing: a
   * deleted avatar is not resurrected, a late duplicate does not overwrite (undefined then). A
   * webhook `event` is written with it.
   */
  settle(accountId: number, avatarId: number, outcome: AvatarOutcome, now: Date, event?: WebhookEvent): Promise<Avatar | undefined>;
  /**
   * Avatars generating since before `cutoff` (created before it, still processing), oldest first:
   * what the sweeper fails once no worker can still be on them.
   */
  processingBefore(cutoff: Date): Promise<{ accountId: number; avatarId: number }[]>;
}

export function avatarsFull(cap: number): AppError {
  return new AppError(
    'avatars_full',
    `This plan keeps at most ${cap} avatars and all ${cap} are in use; delete one (DELETE /avatars/{id}) or ${CHANGE_PLAN_HINT}`,
  );
}
