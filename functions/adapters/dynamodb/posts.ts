/**
 * Social posts in the account's partition (`POST#<id>`), so a foreign id is simply not found and
 * the list is a reverse Query, newest first. A post is written only once its provider accepted it.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { Post, PostResult } from '#domain/social-post';
import type { PostStatus } from '#domain/social-post';
import { keys, padId } from './keys';
import { nextId } from './ids';
import type { PageSlice } from './pagination';
import { COLLECTIONS } from './collection-state';
import { createOne } from './collection-counter';
import { pageOfCollection } from './collection-pages';

const POST_PREFIX = COLLECTIONS.posts.prefix;
const postKey = (accountId: number, postId: number) => ({ pk: keys.accountPartition(accountId), sk: `${POST_PREFIX}${padId(postId)}` });

export const newPostId = () => nextId('post');

/** Posts are never removed (a deleted post stays listed as `deleted`), so only creates move the counter. */
export async function putNewPost(post: Post): Promise<void> {
  await createOne({ accountId: post.account_id, collection: 'posts' }, post.id, {
    Put: {
      TableName: config.tableName,
      Item: { ...postKey(post.account_id, post.id), type: 'post', ...post },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
}

export async function getPost(accountId: number, postId: number): Promise<Post | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: config.tableName, Key: postKey(accountId, postId), ConsistentRead: true }));
  return out.Item ? toPost(out.Item) : undefined;
}

/** One page, newest first. */
export async function listPosts(accountId: number, page: number, perPage: number): Promise<PageSlice<Post>> {
  const slice = await pageOfCollection({ accountId, collection: 'posts' }, page, perPage);
  return { items: slice.items.map(toPost), total: slice.total };
}

/**
 * Stores what the provider now says. A post deleted meanwhile stays deleted: a refresh that read the
 * provider before the delete went through must not bring it back. Returns the stored post, or
 * undefined when it is gone or deleted (the caller re-reads).
 */
export async function recordRefresh(
  accountId: number,
  postId: number,
  state: { status: PostStatus; results: PostResult[] },
  now = new Date(),
): Promise<Post | undefined> {
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: postKey(accountId, postId),
        UpdateExpression: 'SET #status = :status, results = :results, refreshed_at = :now, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status <> :deleted',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': state.status, ':results': state.results, ':now': now.toISOString(), ':deleted': 'deleted' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toPost(out.Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** The post stays as a record with status `deleted`. Returns undefined when there is no such post. */
export async function markDeleted(accountId: number, postId: number, results: PostResult[], now = new Date()): Promise<Post | undefined> {
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: postKey(accountId, postId),
        UpdateExpression: 'SET #status = :deleted, results = :results, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deleted': 'deleted', ':results': results, ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toPost(out.Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

function toPost(item: Record<string, unknown>): Post {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    provider: item.provider as Post['provider'],
    provider_post_id: item.provider_post_id as string,
    video_id: item.video_id as number,
    account_ids: (item.account_ids as string[] | undefined) ?? [],
    caption: (item.caption as string | undefined) ?? '',
    schedule_at: (item.schedule_at as string | null | undefined) ?? null,
    draft: Boolean(item.draft),
    status: item.status as PostStatus,
    results: (item.results as PostResult[] | undefined) ?? [],
    refreshed_at: (item.refreshed_at as string | undefined) ?? (item.updated_at as string),
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}
