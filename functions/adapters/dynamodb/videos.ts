/** Finished videos on DynamoDB, counted with their collection (collection-counter.ts) for meta.total. */
import type { Video } from '#domain/video';
import type { VideoLibrary } from '#ports/video-library';
import { allocateShardedId } from './ids';
import type { DynamoTable } from './table';
import { PagedItems } from './counted-items';
import type { TransactItem } from './transactions';

export class DynamoVideoLibrary extends PagedItems<Video> implements VideoLibrary {
  constructor(table: DynamoTable) {
    super(table, { collection: 'videos', type: 'video', fromItem: toVideo });
  }

  newVideoId(accountId: number): Promise<number> {
    return allocateShardedId(this.table, 'video', accountId);
  }

  delete(accountId: number, videoId: number): Promise<Video | undefined> {
    return this.deleteCounted(accountId, videoId);
  }

  /**
   * Stores a finished video together with `withItem` (Finalize: the job's move to done), and the
   * counter. False when `withItem` refused (the job already moved), and nothing was written.
   */
  async putNewWith(video: Video, ...withItems: TransactItem[]): Promise<boolean> {
    return (await this.counters.create(this.ref(video.account_id), video.id, [this.put(video), ...withItems])).written;
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
    ...(item.hook_text === undefined ? {} : { hook_text: item.hook_text as string | null }),
    created_at: item.created_at as string,
  };
}
