/**
 * Social posts on DynamoDB, in the account's partition (`POST#<id>`), so a foreign id is simply not
 * found and the list is a reverse Query, newest first; counted with their collection for meta.total.
 */
import type { Post, PostResult, PostStatus } from '#domain/social-post';
import type { PostStore } from '#ports/post-store';
import { allocateId } from './ids';
import { PagedItems } from './counted-items';
import type { DynamoTable } from './table';
import { updateWithEvent } from './webhook-outbox';
import type { WebhookEvent } from '#domain/webhooks';

export class DynamoPostStore extends PagedItems<Post> implements PostStore {
  constructor(table: DynamoTable) {
    super(table, { collection: 'posts', type: 'post', fromItem: toPost });
  }

  newPostId(): Promise<number> {
    return allocateId(this.table, 'post');
  }

  /** Posts are never removed (a deleted post stays listed as `deleted`), so only creates move the counter. */
  create(post: Post): Promise<void> {
    return this.createCounted(post);
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
      { TableName: this.table.name, Key: this.key(accountId, postId), ExpressionAttributeNames: { '#status': 'status' }, ...update },
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
