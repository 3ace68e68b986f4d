/** An account's own music tracks in the one table, beside its other records and counted like its avatars. */
import type { MusicTrack } from '#domain/music';
import { musicFull, type MusicStore } from '#ports/music-store';
import type { DynamoTable } from './table';
import { allocateId } from './ids';
import { CountedItems } from './counted-items';

export class DynamoMusicStore implements MusicStore {
  private readonly tracks: CountedItems<MusicTrack>;

  constructor(private readonly table: DynamoTable) {
    this.tracks = new CountedItems(table, { collection: 'music', type: 'music', fromItem: toTrack });
  }

  newTrackId(): Promise<number> {
    return allocateId(this.table, 'music');
  }

  /** Listed whole, so capped: the counter that admits a track moves in the same transaction as it. */
  create(track: MusicTrack, cap: number): Promise<void> {
    return this.tracks.create(track, { cap: { limit: cap, refusal: () => musicFull(cap) } });
  }

  count(accountId: number): Promise<number> {
    return this.tracks.count(accountId);
  }

  get(accountId: number, trackId: number): Promise<MusicTrack | undefined> {
    return this.tracks.get(accountId, trackId);
  }

  list(accountId: number): Promise<MusicTrack[]> {
    return this.tracks.all(accountId);
  }

  delete(accountId: number, trackId: number): Promise<MusicTrack | undefined> {
    return this.tracks.delete(accountId, trackId);
  }
}

function toTrack(item: Record<string, unknown>): MusicTrack {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    name: item.name as string,
    duration_s: item.duration_s as number,
    audio_key: item.audio_key as string,
    size_bytes: item.size_bytes as number,
    created_at: item.created_at as string,
  };
}
