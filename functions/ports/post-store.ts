/**
 * Social posts of an account. A post is written only once its provider accepted it, and never
 * removed: a deleted post stays as a record with status `deleted`, which no later refresh undoes.
 */
import type { Post, PostResult, PostStatus } from '#domain/social-post';
import type { WebhookEvent } from '#domain/webhooks';
import type { CountedPage, PagedCollection } from './counted-collection';

export type PostPage = CountedPage<Post>;

export interface PostStore extends PagedCollection<Post> {
  /** Posts are numbered before the provider is called: the id is the provider's external id. */
  newPostId(): Promise<number>;
  /** Writes a new post and counts it in the account's posts. */
  create(post: Post): Promise<void>;
  /**
   * Stores what the provider now says, unless the post is gone or was deleted meanwhile (a refresh
   * that read the provider before a delete went through must not bring it back): then undefined.
   * A webhook `event` is written with it only if the status changes.
   */
  recordRefresh(accountId: number, postId: number, state: { status: PostStatus; results: PostResult[] }, now: Date, event?: WebhookEvent): Promise<Post | undefined>;
  /** Status `deleted` with these results; undefined when there is no such post. */
  markDeleted(accountId: number, postId: number, results: PostResult[], now: Date): Promise<Post | undefined>;
}
