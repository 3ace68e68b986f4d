import type { PostRequest } from '#domain/social-post';
import type { ProviderName } from '#domain/social';
import { publishPost } from '#use-cases/publish-post';
import { OLD_INSTAGRAM, TIKTOK, X, YOUTUBE, socialWorld, type SocialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;

async function ready(provider: ProviderName = 'provider_a') {
  const world = socialWorld();
  await world.connect(ACCOUNT, provider, [TIKTOK, YOUTUBE, X, OLD_INSTAGRAM]);
  const video = await world.video(ACCOUNT);
  const request = (fields: Partial<PostRequest> = {}): PostRequest => ({
    provider,
    videoId: video.id,
    accountIds: [TIKTOK.id, YOUTUBE.id],
    caption: 'New drop',
    scheduleAt: null,
    draft: false,
    ...fields,
  });
  return { world, video, request, fake: world[provider] };
}

const publish = (world: SocialWorld, request: PostRequest) => publishPost(world.deps, { accountId: ACCOUNT, request });

describe('publishPost', () => {
  test('hands the video to the provider with our post id and records what it accepted', async () => {
    const { world, video, request, fake } = await ready();
    const post = await publish(world, request());
    const [call] = fake.callsOf('createPost');
    expect(call!.credentials).toEqual({ apiKey: 'provider_a_key_0123456789' });
    expect(call!.input).toMatchObject({
      caption: 'New drop',
      externalId: String(post.id),
      channels: [TIKTOK, YOUTUBE],
      media: { url: `memory://${video.key}`, thumbnailUrl: `memory://${video.poster_key}`, sizeBytes: video.size_bytes, fileName: `video-${video.id}.mp4` },
    });
    expect(post).toMatchObject({
      account_id: ACCOUNT,
      provider: 'provider_a',
      provider_post_id: `provider_a-${post.id}`,
      status: 'publishing',
      results: [
        { account_id: TIKTOK.id, platform: 'tiktok', status: 'pending' },
        { account_id: YOUTUBE.id, platform: 'youtube', status: 'pending' },
      ],
    });
    expect(await world.posts.get(ACCOUNT, post.id)).toEqual(post);
  });

  test("a video whose file is past its plan's retention is 410 video_expired, and the provider is not asked", async () => {
    const { world, request, fake } = await ready();
    const expired = await world.video(ACCOUNT, undefined, { retention_days: 30, file_expires_at: new Date(world.deps.now().getTime() - 60_000).toISOString() });
    await expect(publish(world, request({ videoId: expired.id }))).rejects.toMatchObject({ status: 410, code: 'video_expired' });
    expect(fake.calls).toEqual([]);
  });

  test('a post scheduled for when the file will be gone is 400 on schedule_at (the provider fetches the file then)', async () => {
    const { world, request, fake } = await ready();
    const expiresAt = new Date(world.deps.now().getTime() + 2 * 86_400_000);
    const video = await world.video(ACCOUNT, undefined, { retention_days: 30, file_expires_at: expiresAt.toISOString() });
    const late = publish(world, request({ videoId: video.id, scheduleAt: new Date(expiresAt.getTime() + 3_600_000) }));
    await expect(late).rejects.toMatchObject({ status: 400, param: 'schedule_at' });
    expect(fake.calls).toEqual([]);
    await expect(publish(world, request({ videoId: video.id, scheduleAt: new Date(expiresAt.getTime() - 3_600_000) }))).resolves.toMatchObject({ status: 'scheduled' });
  });

  test('not connected: 409 saying to connect first, and the provider is not asked', async () => {
    const world = socialWorld();
    const video = await world.video(ACCOUNT);
    const refusal = publish(world, { provider: 'provider_b', videoId: video.id, accountIds: ['x'], caption: 'c', scheduleAt: null, draft: false });
    await expect(refusal).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('connect it first') });
    expect(world.provider_b.calls).toEqual([]);
  });

  test('a connection whose key was refused, or whose record no longer opens, is a 409 reconnect before any call', async () => {
    const { world, request, fake } = await ready();
    const connection = (await world.connections.get(ACCOUNT, 'provider_a'))!;
    await world.connections.markError(ACCOUNT, 'provider_a', connection.generation, { code: 'provider_refused_key', message: 'x' }, new Date());
    await expect(publish(world, request())).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('reconnect') });

    // A record moved from another account does not open here.
    const foreign = await world.connect(ACCOUNT + 1, 'provider_a', [TIKTOK]);
    await world.connections.put({ ...connection, credentials: foreign.credentials });
    await expect(publish(world, request())).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('reconnect') });
    expect(fake.calls).toEqual([]);
  });

  test('checks before the call: the video, the channels, the X app, the caption', async () => {
    const { world, request, fake } = await ready();
    await expect(publish(world, request({ videoId: 999 }))).rejects.toMatchObject({ code: 'not_found' });
    await expect(publish(world, request({ accountIds: ['nope', OLD_INSTAGRAM.id] }))).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/not channels of provider_a: nope; inactive .*ch-instagram/),
    });
    await expect(publish(world, request({ accountIds: [X.id] }))).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('x_api_key') });
    await expect(publish(world, request({ accountIds: [TIKTOK.id], caption: 'x'.repeat(2201) }))).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('tiktok takes at most 2200'),
    });
    expect(fake.calls).toEqual([]);
    expect(world.posts.posts.size).toBe(0);
  });

  test('the provider refusing the stored key: 409, the connection shows the error, nothing is stored', async () => {
    const { world, request, fake } = await ready();
    fake.fail('createPost', fake.error('auth'));
    await expect(publish(world, request())).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('reconnect') });
    expect(await world.connections.get(ACCOUNT, 'provider_a')).toMatchObject({ status: 'error', last_error: { code: 'provider_refused_key' } });
    expect(world.posts.posts.size).toBe(0);
  });

  test('the provider refusing the content is a 400 with its reason; down is a 503 with Retry-After', async () => {
    const { world, request, fake } = await ready('provider_b');
    fake.fail('createPost', fake.error('rejected', 'the caption contains a banned word'));
    await expect(publish(world, request())).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('banned word') });
    fake.fail('createPost', fake.error('unavailable', 'down', { retryAfterS: 9 }));
    await expect(publish(world, request())).rejects.toMatchObject({ code: 'upstream_unavailable', headers: { 'retry-after': '9' } });
    expect(world.posts.posts.size).toBe(0);
    expect(await world.connections.get(ACCOUNT, 'provider_b')).toMatchObject({ status: 'active' });
  });

  test('an accepted post that cannot be recorded is withdrawn upstream', async () => {
    const { world, request, fake } = await ready();
    world.posts.create = async () => Promise.reject(new Error('table unavailable'));
    await expect(publish(world, request({ draft: true }))).rejects.toThrow('table unavailable');
    expect(fake.callsOf('deletePost').map((c) => c.input)).toEqual(['provider_a-1']);
    expect(fake.posts.size).toBe(0);
  });
});
