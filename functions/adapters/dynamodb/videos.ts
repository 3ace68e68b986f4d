/** Finished videos. The pipeline's Finalize step writes them; the API reads and deletes them. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { Video } from '#domain/video';
import { keys } from './keys';
import type { PageSlice } from './pagination';
import { createInCollection, deleteFromCollection } from './collection-counter';
import { pageOfCollection } from './collection-pages';
import type { TransactItem } from './transactions';

export async function getVideo(accountId: number, videoId: number): Promise<Video | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.video(accountId, videoId), ConsistentRead: true }),
  );
  return out.Item ? toVideo(out.Item) : undefined;
}

/** One page, newest first. */
export async function listVideos(accountId: number, page: number, perPage: number): Promise<PageSlice<Video>> {
  const slice = await pageOfCollection({ accountId, collection: 'videos' }, page, perPage);
  return { items: slice.items.map(toVideo), total: slice.total };
}

/**
 * Stores a finished video together with `with` (Finalize: the job's move to done), and the counter.
 * False when an item of `with` refused (the job already moved), and nothing was written.
 */
export async function putNewVideoWith(video: Video, withItem: TransactItem): Promise<boolean> {
  const put: TransactItem = {
    Put: {
      TableName: config.tableName,
      Item: { ...keys.video(video.account_id, video.id), type: 'video', ...video },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  return (await createInCollection({ accountId: video.account_id, collection: 'videos' }, video.id, [put, withItem])).written;
}

/** Returns the deleted record (its object keys are the caller's to remove), or undefined when there was none. */
export async function deleteVideo(accountId: number, videoId: number): Promise<Video | undefined> {
  const video = await getVideo(accountId, videoId);
  if (!video) return undefined;
  const removed = await deleteFromCollection({ accountId, collection: 'videos' }, videoId, {
    Delete: { TableName: config.tableName, Key: keys.video(accountId, videoId), ConditionExpression: 'attribute_exists(pk)' },
  });
  return removed ? video : undefined;
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
    created_at: item.created_at as string,
  };
}
