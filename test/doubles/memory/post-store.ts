/** Social posts in memory, with the DynamoDB store's conditions (a deleted post stays deleted; a refresh of a gone post writes nothing). */
import type { Post, PostResult, PostStatus } from '#domain/social-post';
import type { PostPage, PostStore } from '#ports/post-store';

const postKey = (accountId: number, postId: number) => `${accountId}/${postId}`;

export class MemoryPostStore implements PostStore {
  readonly posts = new Map<string, Post>();
  private lastId = 0;

  async newPostId(): Promise<number> {
    return ++this.lastId;
  }

  async create(post: Post): Promise<void> {
    const key = postKey(post.account_id, post.id);
    if (this.posts.has(key)) throw new Error(`posts item ${post.id} of account ${post.account_id} already exists`);
    this.posts.set(key, structuredClone(post));
  }

  async get(accountId: number, postId: number): Promise<Post | undefined> {
    const post = this.posts.get(postKey(accountId, postId));
    return post && structuredClone(post);
  }

  /** Newest first, as the counted collection pages. */
  async list(accountId: number, page: number, perPage: number): Promise<PostPage> {
    const all = [...this.posts.values()].filter((p) => p.account_id === accountId).sort((a, b) => b.id - a.id);
    return { items: all.slice((page - 1) * perPage, page * perPage).map((p) => structuredClone(p)), total: all.length };
  }

  async recordRefresh(accountId: number, postId: number, state: { status: PostStatus; results: PostResult[] }, now: Date): Promise<Post | undefined> {
    const post = this.posts.get(postKey(accountId, postId));
    if (!post || post.status === 'deleted') return undefined;
    Object.assign(post, { status: state.status, results: structuredClone(state.results), refreshed_at: now.toISOString(), updated_at: now.toISOString() });
    return structuredClone(post);
  }

  async markDeleted(accountId: number, postId: number, results: PostResult[], now: Date): Promise<Post | undefined> {
    const post = this.posts.get(postKey(accountId, postId));
    if (!post) return undefined;
    Object.assign(post, { status: 'deleted', results: structuredClone(results), updated_at: now.toISOString() });
    return structuredClone(post);
  }
}
