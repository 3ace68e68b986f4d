/** An account's own music tracks, listed whole and capped (MUSIC_LIMITS.perAccountCap). */
import type { MusicTrack } from '#domain/music';
import { conflict, type AppError } from '#domain/errors';

export interface MusicStore {
  newTrackId(): Promise<number>;
  /** Refuses with `musicFull(cap)` when the account already has `cap`, however many creates race. */
  create(track: MusicTrack, cap: number): Promise<void>;
  count(accountId: number): Promise<number>;
  get(accountId: number, trackId: number): Promise<MusicTrack | undefined>;
  /** The whole set, newest first. */
  list(accountId: number): Promise<MusicTrack[]>;
  /** The deleted record (its file is the caller's to remove), or undefined when there was none. */
  delete(accountId: number, trackId: number): Promise<MusicTrack | undefined>;
}

export function musicFull(cap: number): AppError {
  return conflict(`An account keeps at most ${cap} music tracks and all ${cap} are in use; delete one (DELETE /music/{music_id}) to add another`);
}
