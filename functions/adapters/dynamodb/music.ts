/** An account's own music tracks in the one table, beside its other records and counted like its avatars. */
import type { MusicTrack } from '#domain/music';
import { musicFull, type MusicStore } from '#ports/music-store';
import type { DynamoTable } from './table';
import { allocateId } from './ids';
import { CappedItems } from './counted-items';

export class DynamoMusicStore extends CappedItems<MusicTrack> implements MusicStore {
  constructor(table: DynamoTable) {
    super(table, { collection: 'music', type: 'music', fromItem: toTrack }, musicFull);
  }

  newTrackId(): Promise<number> {
    return allocateId(this.table, 'music');
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
