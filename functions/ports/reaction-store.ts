/** The saved-reaction library: one reaction per job, capped per plan. */
import { AppError } from '#domain/errors';
import { CHANGE_PLAN_HINT } from '#domain/plans';
import type { SavedReaction } from '#domain/reaction';

export type SaveOutcome = { created: true } | { created: false; existingId: number };

export interface ReactionStore {
  newReactionId(): Promise<number>;
  /**
   * Saves the reaction unless its job was saved already (then the earlier one's id comes back);
   * refuses with `libraryFull(cap)` when the library holds `cap`, however many saves race.
   */
  saveFromJob(reaction: SavedReaction, cap: number): Promise<SaveOutcome>;
  get(accountId: number, reactionId: number): Promise<SavedReaction | undefined>;
  /** The whole library, newest first. */
  list(accountId: number): Promise<SavedReaction[]>;
  /** The id of the reaction saved from this job, if any. */
  idForJob(accountId: number, jobId: number): Promise<number | undefined>;
  /** The deleted record (its objects are the caller's to remove), or undefined when there was none. */
  delete(accountId: number, reactionId: number): Promise<SavedReaction | undefined>;
}

export function libraryFull(cap: number): AppError {
  return new AppError(
    'library_full',
    `The saved-reaction library is full (${cap} of ${cap} on this plan); delete a saved reaction (DELETE /reactions/{id}) or ${CHANGE_PLAN_HINT}`,
  );
}
