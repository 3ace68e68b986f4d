/**
 * What every PostStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions.
 */
import type { Post, PostResult } from '#domain/social-post';
import type { WebhookEvent } from '#domain/webhooks';
import type { PostStore } from '#ports/post-store';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-01T11:00:00.000Z');
const T2 = new Date('2026-03-01T12:00:00.000Z');

const published: PostResult[] = [{ account_id: 'ch1', platform: 'tiktok', status: 'published', url: 'https://example.com/p/1', error: null }];
const deleted: PostResult[] = [{ account_id: 'ch1', platform: 'tiktok', status: 'deleted', url: 'https://example.com/p/1', error: null }];

const statusEvent = (post: Post, id: string): WebhookEvent => ({
  id,
  account_id: post.account_id,
  type: 'social.post.published',
  subject: { kind: 'post', id: post.id },
  order_key: `post-${post.id}`,
  created_at: T1.toISOString(),
});

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function postStoreContract(store: () => PostStore, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;

  async function created(accountId: number): Promise<Post> {
    const id = await store().newPostId();
    const post: Post = {
      id,
      account_id: accountId,
      provider: 'provider_a',
      provider_post_id: `ext-${id}`,
      video_id: 5,
      account_ids: ['ch1'],
      caption: 'New lamp',
      schedule_at: null,
      draft: false,
      status: 'publishing',
      results: [{ account_id: 'ch1', platform: 'tiktok', status: 'pending', url: null, error: null }],
      refreshed_at: T0.toISOString(),
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
    };
    await store().create(post);
    return post;
  }

  describe('the post store', () => {
    test('a post reads back as written, only in its account, and is created once', async () => {
      const accountId = freshAccount();
      const post = await created(accountId);
      expect(await store().get(accountId, post.id)).toEqual(post);
      expect(await store().get(accountId + 1, post.id)).toBeUndefined();
      await expect(store().create({ ...post, caption: 'again' })).rejects.toThrow(/already exists/);
      expect(await store().get(accountId, post.id)).toEqual(post);
    });

    test('lists page newest first with the total; a page past the end is empty', async () => {
      const accountId = freshAccount();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await created(accountId)).id);
      const first = await store().list(accountId, 1, 2);
      expect({ ids: first.items.map((p) => p.id), total: first.total }).toEqual({ ids: [ids[2], ids[1]], total: 3 });
      expect((await store().list(accountId, 2, 2)).items.map((p) => p.id)).toEqual([ids[0]]);
      expect(await store().list(accountId, 3, 2)).toEqual({ items: [], total: 3 });
    });

    test('a refresh stores what the provider says, and answers the post as read back', async () => {
      const accountId = freshAccount();
      const post = await created(accountId);
      const refreshed = await store().recordRefresh(accountId, post.id, { status: 'published', results: published }, T1, statusEvent(post, 'evt_published'));
      expect(refreshed).toEqual({ ...post, status: 'published', results: published, refreshed_at: T1.toISOString(), updated_at: T1.toISOString() });
      expect(await store().get(accountId, post.id)).toEqual(refreshed);
    });

    test('a refresh that finds the status unchanged, event or not, still records when it was confirmed', async () => {
      const accountId = freshAccount();
      const post = await created(accountId);
      await store().recordRefresh(accountId, post.id, { status: 'published', results: published }, T1, statusEvent(post, 'evt_first'));
      const again = await store().recordRefresh(accountId, post.id, { status: 'published', results: published }, T2, statusEvent(post, 'evt_again'));
      expect(again).toMatchObject({ status: 'published', refreshed_at: T2.toISOString(), updated_at: T2.toISOString() });
    });

    test('a deleted post stays deleted: a later refresh is refused and changes nothing', async () => {
      const accountId = freshAccount();
      const post = await created(accountId);
      const gone = await store().markDeleted(accountId, post.id, deleted, T1);
      expect(gone).toEqual({ ...post, status: 'deleted', results: deleted, updated_at: T1.toISOString() });
      expect(await store().recordRefresh(accountId, post.id, { status: 'published', results: published }, T2)).toBeUndefined();
      expect(await store().get(accountId, post.id)).toEqual(gone);
    });

    test('a post that does not exist is neither refreshed nor deleted, nor made by trying', async () => {
      const accountId = freshAccount();
      expect(await store().recordRefresh(accountId, 999_999, { status: 'published', results: published }, T1)).toBeUndefined();
      expect(await store().markDeleted(accountId, 999_999, deleted, T1)).toBeUndefined();
      expect(await store().get(accountId, 999_999)).toBeUndefined();
    });
  });
}
