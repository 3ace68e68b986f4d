/** Finished videos on DynamoDB, counted with their collection (collection-counter.ts) for meta.total. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Video } from '#domain/video';
import type { VideoLibrary, VideoPage } from '#ports/video-library';
import { keys } from './keys';
import { allocateShardedId } from './ids';
import type { DynamoTable } from './table';
import { DynamoCollections } from './collection-counter';
import type { TransactItem } from './transactions';

const VIDEOS = (accountId: number) => ({ accountId, collection: 'videos' as const });

export class DynamoVideoLibrary implements VideoLibrary {
  private readonly collections: DynamoCollections;

  constructor(private readonly table: DynamoTable) {
    this.collections = new DynamoCollections(table);
  }

  newVideoId(accountId: number): Promise<number> {
    return allocateShardedId(this.table, 'video', accountId);
  }

  async get(accountId: number, videoId: number): Promise<Video | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.video(accountId, videoId), ConsistentRead: true }));
    return out.Item ? toVideo(out.Item) : undefined;
  }

  async list(accountId: number, page: number, perPage: number): Promise<VideoPage> {
    const slice = await this.collections.page(VIDEOS(accountId), page, perPage);
    return { items: slice.items.map(toVideo), total: slice.total };
  }

  async delete(accountId: number, videoId: number): Promise<Video | undefined> {
    const video = await this.get(accountId, videoId);
    if (!video) return undefined;
    const removed = await this.collections.delete(VIDEOS(accountId), videoId, {
      Delete: { TableName: this.table.name, Key: keys.video(accountId, videoId), ConditionExpression: 'attribute_exists(pk)' },
    });
    return removed ? video : undefined;
  }

  /**
   * Stores a finished video together with `withItem` (Finalize: the job's move to done), and the
   * counter. False when `withItem` refused (the job already moved), and nothing was written.
   */
  async putNewWith(video: Video, ...withItems: TransactItem[]): Promise<boolean> {
    const put: TransactItem = {
      Put: {
        TableName: this.table.name,
        Item: { ...keys.video(video.account_id, video.id), type: 'video', ...video },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    return (await this.collections.create(VIDEOS(video.account_id), video.id, [put, ...withItems])).written;
  }
}

function toVideo(item: Record<string, unknown>): Video {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    job_id: item.job_id as number,
    product_id: item.product_id as number,
    key: item.key as string,
    poster_key: item.poster_key as string,
    duration_s: item.duration_s as number,
    width: item.width as number,
    height: item.height as number,
    size_bytes: item.size_bytes as number,
    ...(typeof item.file_expires_at === 'string' ? { retention_days: item.retention_days as number, file_expires_at: item.file_expires_at } : {}),
    created_at: item.created_at as string,
  };
}
