import { deletePost } from '#use-cases/delete-post';
import { publishPost } from '#use-cases/publish-post';
import { TIKTOK, YOUTUBE, socialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;

async function withPost(options: { draft?: boolean } = { draft: true }) {
  const world = socialWorld();
  await world.connect(ACCOUNT, 'provider_a', [TIKTOK, YOUTUBE]);
  const video = await world.video(ACCOUNT);
  const post = await publishPost(world.deps, {
    accountId: ACCOUNT,
    request: { provider: 'provider_a', videoId: video.id, accountIds: [TIKTOK.id, YOUTUBE.id], caption: 'hi', scheduleAt: null, draft: options.draft ?? false },
  });
  const remove = () => deletePost(world.deps, { accountId: ACCOUNT, postId: post.id });
  return { world, post, fake: world.provider_a, remove };
}

describe('deletePost', () => {
  test('deletes upstream and keeps the record as deleted; deleting again asks nothing upstream', async () => {
    const { world, post, fake, remove } = await withPost();
    const gone = await remove();
    expect(gone).toMatchObject({ id: post.id, status: 'deleted', results: [{ status: 'deleted' }, { status: 'deleted' }] });
    expect(await world.posts.get(ACCOUNT, post.id)).toEqual(gone);
    expect(fake.callsOf('deletePost').map((c) => c.input)).toEqual([post.provider_post_id]);

    const calls = fake.calls.length;
    await expect(remove()).resolves.toMatchObject({ status: 'deleted' });
    expect(fake.calls).toHaveLength(calls);
  });

  test('the rule is judged on the state the provider has now: a post that went out is a 409 naming the rule', async () => {
    const { world, post, fake, remove } = await withPost({ draft: false });
    fake.settle(post.provider_post_id, 'published');
    await expect(remove()).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('only draft or scheduled posts can be deleted') });
    expect(fake.callsOf('deletePost')).toEqual([]);
    expect((await world.posts.get(ACCOUNT, post.id))!.status).toBe('published');
  });

  test('already gone upstream: deleted here without complaint', async () => {
    const { world, post, fake, remove } = await withPost();
    fake.fail('deletePost', fake.error('not_found'));
    await expect(remove()).resolves.toMatchObject({ status: 'deleted' });
    expect((await world.posts.get(ACCOUNT, post.id))!.status).toBe('deleted');
  });

  test('the provider down: 503 with Retry-After, and the post is unchanged', async () => {
    const { world, post, fake, remove } = await withPost();
    fake.fail('deletePost', fake.error('unavailable', 'down', { retryAfterS: 4 }));
    await expect(remove()).rejects.toMatchObject({ code: 'upstream_unavailable', headers: { 'retry-after': '4' } });
    expect(await world.posts.get(ACCOUNT, post.id)).toEqual(post);
  });

  test('disconnected: the rule first, then 409 saying to connect', async () => {
    const { world, fake, remove } = await withPost();
    await world.connections.remove(ACCOUNT, 'provider_a');
    await expect(remove()).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('connect it first') });
    expect(fake.callsOf('deletePost')).toEqual([]);
  });

  test('another account\'s post is not found', async () => {
    const { world, post } = await withPost();
    await expect(deletePost(world.deps, { accountId: ACCOUNT + 1, postId: post.id })).rejects.toMatchObject({ code: 'not_found' });
  });
});
