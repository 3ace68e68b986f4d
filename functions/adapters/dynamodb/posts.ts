/**
 * Social posts on DynamoDB, in the account's partition (`POST#<id>`), so a foreign id is simply not
 * found and the list is a reverse Query, newest first; counted with their collection for meta.total.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Post, PostResult, PostStatus } from '#domain/social-post';
import type { PostPage, PostStore } from '#ports/post-store';
import { keys, padId } from './keys';
import { allocateId } from './ids';
import { COLLECTIONS } from './collection-state';
import { DynamoCollections } from './collection-counter';
import type { DynamoTable } from './table';
import { updateWithEvent } from './webhook-outbox';
import type { WebhookEvent } from '#domain/webhooks';

const POST_PREFIX = COLLECTIONS.posts.prefix;
const postKey = (accountId: number, postId: number) => ({ pk: keys.accountPartition(accountId), sk: `${POST_PREFIX}${padId(postId)}` });

export class DynamoPostStore implements PostStore {
  private readonly collections: DynamoCollections;

  constructor(private readonly table: DynamoTable) {
    this.collections = new DynamoCollections(table);
  }

  newPostId(): Promise<number> {
    return allocateId(this.table, 'post');
  }

  /** Posts are never removed (a deleted post stays listed as `deleted`), so only creates move the counter. */
  async create(post: Post): Promise<void> {
    await this.collections.createOne({ accountId: post.account_id, collection: 'posts' }, post.id, {
      Put: {
        TableName: this.table.name,
        Item: { ...postKey(post.account_id, post.id), type: 'post', ...post },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }

  async get(accountId: number, postId: number): Promise<Post | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: postKey(accountId, postId), ConsistentRead: true }));
    return out.Item ? toPost(out.Item) : undefined;
  }

  async list(accountId: number, page: number, perPage: number): Promise<PostPage> {
    const slice = await this.collections.page({ accountId, collection: 'posts' }, page, perPage);
    return { items: slice.items.map(toPost), total: slice.total };
  }

  async recordRefresh(accountId: number, postId: number, state: { status: PostStatus; results: PostResult[] }, now: Date, event?: WebhookEvent): Promise<Post | undefined> {
    const refresh = {
      UpdateExpression: 'SET #status = :status, results = :results, refreshed_at = :now, updated_at = :now',
      ConditionExpression: 'attribute_exists(pk) AND #status <> :deleted',
      ExpressionAttributeValues: { ':status': state.status, ':results': state.results, ':now': now.toISOString(), ':deleted': 'deleted' },
    };
    if (event) {
      // The event goes with a change of status only; a refresh that finds the same status records without one.
      const changed = await this.update(accountId, postId, { ...refresh, ConditionExpression: `${refresh.ConditionExpression} AND #status <> :status` }, event);
      if (changed) return changed;
    }
    return this.update(accountId, postId, refresh);
  }

  markDeleted(accountId: number, postId: number, results: PostResult[], now: Date): Promise<Post | undefined> {
    return this.update(accountId, postId, {
      UpdateExpression: 'SET #status = :deleted, results = :results, updated_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':deleted': 'deleted', ':results': results, ':now': now.toISOString() },
    });
  }

  /** The post as stored after the update, or undefined when its condition refused it. */
  private async update(
    accountId: number,
    postId: number,
    update: { UpdateExpression: string; ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> },
    event?: WebhookEvent,
  ): Promise<Post | undefined> {
    const item = await updateWithEvent(
      this.table,
      { TableName: this.table.name, Key: postKey(accountId, postId), ExpressionAttributeNames: { '#status': 'status' }, ...update },
      event,
    );
    return item ? toPost(item) : undefined;
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
