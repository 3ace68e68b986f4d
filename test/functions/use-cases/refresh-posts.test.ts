import { listPosts, readPost } from '#use-cases/refresh-posts';
import { publishPost } from '#use-cases/publish-post';
import { TIKTOK, YOUTUBE, socialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;
const HOUR = 60 * 60 * 1000;

async function withPost(fields: { draft?: boolean; scheduleAt?: Date | null } = {}) {
  const world = socialWorld();
  await world.connect(ACCOUNT, 'provider_b', [TIKTOK, YOUTUBE]);
  const video = await world.video(ACCOUNT);
  const post = await publishPost(world.deps, {
    accountId: ACCOUNT,
    request: { provider: 'provider_b', videoId: video.id, accountIds: [TIKTOK.id, YOUTUBE.id], caption: 'hi', scheduleAt: fields.scheduleAt ?? null, draft: fields.draft ?? false },
  });
  return { world, post, fake: world.provider_b };
}

const read = (world: ReturnType<typeof socialWorld>, postId: number) => readPost(world.deps, { accountId: ACCOUNT, postId });

describe('readPost', () => {
  test('a post still moving is asked of its provider, and what it says is stored', async () => {
    const { world, post, fake } = await withPost();
    fake.settle(post.provider_post_id, 'published');
    const later = new Date(Date.parse(post.created_at) + 60_000);
    world.setNow(later);
    const read1 = await read(world, post.id);
    expect(read1.stale).toBeNull();
    expect(read1.post).toMatchObject({ status: 'published', refreshed_at: later.toISOString() });
    expect(read1.post.results.map((r) => [r.account_id, r.status])).toEqual([
      [TIKTOK.id, 'published'],
      [YOUTUBE.id, 'published'],
    ]);
    expect(await world.posts.get(ACCOUNT, post.id)).toEqual(read1.post);

    // Final now: no more asking.
    const calls = fake.callsOf('getPost').length;
    await read(world, post.id);
    expect(fake.callsOf('getPost')).toHaveLength(calls);
  });

  test('the provider unavailable: the stored state, stale, with the reason', async () => {
    const { world, post, fake } = await withPost();
    fake.fail('getPost', fake.error('unavailable', 'down', { retryAfterS: 5 }));
    const answer = await read(world, post.id);
    expect(answer).toEqual({ post, stale: { code: 'upstream_unavailable', message: expect.stringContaining('retry in 5 s') } });
  });

  test('gone upstream: deleted here too', async () => {
    const { world, post, fake } = await withPost({ draft: true });
    fake.posts.clear();
    const answer = await read(world, post.id);
    expect(answer.post).toMatchObject({ status: 'deleted', results: [{ status: 'deleted' }, { status: 'deleted' }] });
  });

  test('the stored key refused: stale with the reconnect message, and the connection shows the error', async () => {
    const { world, post, fake } = await withPost();
    fake.fail('getPost', fake.error('auth'));
    expect((await read(world, post.id)).stale).toEqual({ code: 'conflict', message: expect.stringContaining('reconnect') });
    expect(await world.connections.get(ACCOUNT, 'provider_b')).toMatchObject({ status: 'error', last_error: { code: 'provider_refused_key' } });
    // From now on the provider is not asked until the owner connects again.
    const calls = fake.calls.length;
    expect((await read(world, post.id)).stale).toMatchObject({ code: 'conflict' });
    expect(fake.calls).toHaveLength(calls);
  });

  test('disconnected meanwhile: stale, saying to connect first', async () => {
    const { world, post } = await withPost();
    await world.connections.remove(ACCOUNT, 'provider_b');
    expect((await read(world, post.id)).stale).toEqual({ code: 'conflict', message: expect.stringContaining('connect it first') });
  });

  test('another account\'s post, or none, is not found', async () => {
    const { world, post } = await withPost();
    await expect(readPost(world.deps, { accountId: ACCOUNT + 1, postId: post.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(read(world, 999)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('listPosts', () => {
  test('refreshes only what may have moved by itself: not drafts, not posts scheduled later', async () => {
    const { world, post: moving, fake } = await withPost();
    const video = await world.video(ACCOUNT);
    const base = { provider: 'provider_b' as const, videoId: video.id, accountIds: [TIKTOK.id], caption: 'c', draft: false };
    const draft = await publishPost(world.deps, { accountId: ACCOUNT, request: { ...base, scheduleAt: null, draft: true } });
    const later = await publishPost(world.deps, { accountId: ACCOUNT, request: { ...base, scheduleAt: new Date(Date.parse(moving.created_at) + HOUR) } });
    fake.settle(moving.provider_post_id, 'published');

    const page = await listPosts(world.deps, { accountId: ACCOUNT, page: 1, perPage: 10 });
    expect(page.total).toBe(3);
    expect(page.items.map(({ post }) => [post.id, post.status])).toEqual([
      [later.id, 'scheduled'],
      [draft.id, 'draft'],
      [moving.id, 'published'],
    ]);
    expect(fake.callsOf('getPost').map((c) => c.input)).toEqual([moving.provider_post_id]);
  });
});
