/** An account's own music tracks in the one table, beside its other records and counted like its avatars. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MusicTrack } from '#domain/music';
import { musicFull, type MusicStore } from '#ports/music-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { allocateId } from './ids';
import { queryAll } from './pagination';
import { DynamoCollections } from './collection-counter';

export class DynamoMusicStore implements MusicStore {
  private readonly collections: DynamoCollections;

  constructor(private readonly table: DynamoTable) {
    this.collections = new DynamoCollections(table);
  }

  newTrackId(): Promise<number> {
    return allocateId(this.table, 'music');
  }

  /** Listed whole, so capped: the counter that admits a track moves in the same transaction as it. */
  async create(track: MusicTrack, cap: number): Promise<void> {
    await this.collections.createOne(
      { accountId: track.account_id, collection: 'music' },
      track.id,
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.musicTrack(track.account_id, track.id), type: 'music', ...track },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { limit: cap, refusal: () => musicFull(cap) },
    );
  }

  /** One read; a set never counted is counted once first. */
  async count(accountId: number): Promise<number> {
    return (await this.collections.count({ accountId, collection: 'music' })).count;
  }

  async get(accountId: number, trackId: number): Promise<MusicTrack | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.musicTrack(accountId, trackId), ConsistentRead: true }));
    return out.Item ? toTrack(out.Item) : undefined;
  }

  async list(accountId: number): Promise<MusicTrack[]> {
    return (await queryAll(this.table, keys.accountPartition(accountId), keys.musicPrefix, { newestFirst: true })).map(toTrack);
  }

  async delete(accountId: number, trackId: number): Promise<MusicTrack | undefined> {
    const track = await this.get(accountId, trackId);
    if (!track) return undefined;
    const removed = await this.collections.delete({ accountId, collection: 'music' }, trackId, {
      Delete: { TableName: this.table.name, Key: keys.musicTrack(accountId, trackId), ConditionExpression: 'attribute_exists(pk)' },
    });
    return removed ? track : undefined;
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
