/** An account's own music tracks, listed whole and capped (MUSIC_LIMITS.perAccountCap). */
import type { MusicTrack } from '#domain/music';
import { conflict, type AppError } from '#domain/errors';
import type { CappedCollection } from './counted-collection';

/** A create past the cap is refused with `musicFull(cap)`. */
export interface MusicStore extends CappedCollection<MusicTrack> {
  newTrackId(): Promise<number>;
}

export function musicFull(cap: number): AppError {
  return conflict(`An account keeps at most ${cap} music tracks and all ${cap} are in use; delete one (DELETE /music/{music_id}) to add another`);
}
