/** Avatars, listed whole and capped per plan. */
import type { Avatar } from '#domain/avatar';
import type { WebhookEvent } from '#domain/webhooks';
import { AppError } from '#domain/errors';
import { CHANGE_PLAN_HINT } from '#domain/plans';
import type { CappedCollection } from './counted-collection';

export type AvatarOutcome = Pick<Avatar, 'status' | 'image_key' | 'width' | 'height' | 'engine' | 'seed' | 'error'> & { rig?: unknown };

/** A create past the cap is refused with `avatarsFull(cap)`. */
export interface AvatarStore extends CappedCollection<Avatar> {
  newAvatarId(): Promise<number>;
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
