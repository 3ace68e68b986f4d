/** Finished videos. The pipeline's Finalize step writes them; the API reads and deletes them. */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws-clients';
import { config } from '../../config';
import type { Video } from '../../domain/video';
import { keys } from './keys';
import { pageOfPrefix, type PageSlice } from './pagination';

export async function getVideo(accountId: number, videoId: number): Promise<Video | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.video(accountId, videoId), ConsistentRead: true }),
  );
  return out.Item ? toVideo(out.Item) : undefined;
}

/** One page, newest first. */
export async function listVideos(accountId: number, page: number, perPage: number): Promise<PageSlice<Video>> {
  const slice = await pageOfPrefix(keys.accountPartition(accountId), keys.videoPrefix, page, perPage);
  return { items: slice.items.map(toVideo), total: slice.total };
}

/** Returns the deleted record (its object keys are the caller's to remove), or undefined when there was none. */
export async function deleteVideo(accountId: number, videoId: number): Promise<Video | undefined> {
  const out = await dynamo().send(
    new DeleteCommand({ TableName: config.tableName, Key: keys.video(accountId, videoId), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes ? toVideo(out.Attributes) : undefined;
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
