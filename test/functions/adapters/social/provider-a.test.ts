/**
 * provider_a (Ayrshare-shaped) against a loopback HTTP server written here: the exact requests it
 * sends (method, path, Authorization, Profile-Key, bodies), how answers map to channels, post
 * statuses and per-channel results, the delete rule, and the analytics roll-up.
 */
import { createProviderA, providerADeleteRule } from '#adapters/social/provider-a';
import { createSocialProviders } from '#adapters/social/registry';
import { socialBaseUrlsFromEnv } from '#functions/config';
import type { Channel, ProviderCredentials } from '#domain/social';
import type { ChannelResult } from '#domain/social-post';
import type { CreatePostInput, SocialProvider } from '#ports/social-provider';
import { routes, useLoopbackServer, type Reply } from '#test-support/loopback-server';
import { providerFailure } from '#test-support/social-provider';

const server = useLoopbackServer({ notFound: (request) => ({ status: 404, body: { status: 'error', message: `no route for ${request.method} ${request.path}` } }) });
/** The adapter's base URL: Ayrshare serves under /api. */
const apiUrl = () => `${server.url}/api`;

const KEY = 'AYR-API-KEY-0123456789ABCDEF';
const PROFILE_KEY = 'PROFILE-7F3A-SECRET';
const credentials: ProviderCredentials = { apiKey: KEY, profileKey: PROFILE_KEY };
const NOW = new Date('2025-06-15T12:00:00Z');

let sleeps: number[];
let provider: SocialProvider;

function channel(platform: Channel['platform']): Channel {
  return { id: `a:${platform}`, platform, name: platform, username: null, active: true };
}

function input(overrides: Partial<CreatePostInput> = {}): CreatePostInput {
  return {
    caption: 'Watch this reaction!\nSecond line',
    channels: [channel('x'), channel('tiktok')],
    media: { url: 'https://media.example/v/final.mp4?X-Amz-Signature=abc', thumbnailUrl: 'https://media.example/v/poster.jpg', sizeBytes: 1_000, fileName: 'final.mp4' },
    scheduleAt: null,
    draft: false,
    externalId: 'post_123',
    ...overrides,
  };
}

const failure = (promise: Promise<unknown>) => providerFailure(promise, { provider: 'provider_a', secrets: [KEY, PROFILE_KEY] });

function result(platform: Channel['platform'], status: ChannelResult['status'], url: string | null = null, error: string | null = null): ChannelResult {
  return { channelId: `a:${platform}`, platform, status, url, error };
}

beforeEach(() => {
  sleeps = [];
  provider = createProviderA({
    baseUrl: apiUrl(),
    http: { attemptTimeoutMs: 1_000, maxAttempts: 3, random: () => 0, sleep: async (ms) => void sleeps.push(ms) },
  });
});

describe('configuration', () => {
  it('the base URL comes from PROVIDER_A_BASE_URL, read by the wiring and passed to the registry', async () => {
    server.route(routes({ 'GET /api/user': { body: { displayNames: [] } } }));
    const social = createSocialProviders({ baseUrls: socialBaseUrlsFromEnv({ PROVIDER_A_BASE_URL: apiUrl() }) });
    await expect(social('provider_a').listChannels(credentials)).resolves.toEqual([]);
    expect(server.seen.map((r) => r.path)).toEqual(['/api/user']);
  });
});

describe('registry', () => {
  it('serves one adapter per provider, made once, and refuses a name it does not know', () => {
    const social = createSocialProviders();
    expect(social('provider_a').name).toBe('provider_a');
    expect(social('provider_b').name).toBe('provider_b');
    expect(social('provider_a')).toBe(social('provider_a'));
    expect(() => social('provider_c' as never)).toThrow(/unknown social provider/);
  });

  it("test mode's calls go to the sandbox's address, whatever the configured one", async () => {
    server.route(routes({ 'GET /api/user': { body: { displayNames: [] } } }));
    const social = createSocialProviders({ baseUrls: { provider_a: 'http://127.0.0.1:9/never' }, sandboxUrls: { provider_a: apiUrl() } });
    await expect(social('provider_a', { sandbox: true }).listChannels(credentials)).resolves.toEqual([]);
    expect(server.seen.map((r) => r.path)).toEqual(['/api/user']);
    expect(social('provider_a', { sandbox: true })).not.toBe(social('provider_a'));
  });

  it('where no sandbox runs, a sandbox call is unavailable, saying why, and the real API is not called', async () => {
    const social = createSocialProviders({ baseUrls: { provider_a: apiUrl() } });
    await expect(social('provider_a', { sandbox: true }).listChannels(credentials)).rejects.toMatchObject({ name: 'ProviderError', kind: 'unavailable', message: expect.stringMatching(/sandbox/) });
    expect(server.seen).toEqual([]);
    expect(social('provider_a', { sandbox: true }).deleteRule({ status: 'scheduled', results: [] })).toEqual(social('provider_a').deleteRule({ status: 'scheduled', results: [] }));
  });
});

describe('listChannels', () => {
  it('GET /user with the bearer key and Profile-Key; one channel per network, ids a:<platform>', async () => {
    server.route(
      routes({
        'GET /api/user': {
          body: {
            activeSocialAccounts: ['twitter', 'tiktok', 'reddit'],
            displayNames: [
              { platform: 'twitter', id: '123', displayName: 'Brand on X', username: 'brand', created: '2025-01-01T00:00:00Z' },
              { platform: 'tiktok', id: 'tt-9', displayName: 'Brand TikTok', username: 'brand.tt' },
              { platform: 'instagram', id: 'ig-1', username: 'brand.ig' },
              { platform: 'reddit', id: 'r-1', displayName: 'u/brand' },
            ],
          },
        },
      }),
    );
    const channels = await provider.listChannels(credentials);
    expect(channels).toEqual([
      { id: 'a:x', platform: 'x', name: 'Brand on X', username: 'brand', active: true },
      { id: 'a:tiktok', platform: 'tiktok', name: 'Brand TikTok', username: 'brand.tt', active: true },
      // Listed in displayNames but not among the active accounts: shown, not postable.
      { id: 'a:instagram', platform: 'instagram', name: 'brand.ig', username: 'brand.ig', active: false },
    ]);
    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'GET', path: '/api/user' });
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['profile-key']).toBe(PROFILE_KEY);
    expect(JSON.stringify(channels)).not.toContain(PROFILE_KEY);
  });

  it('without a profileKey no Profile-Key header is sent', async () => {
    server.route(routes({ 'GET /api/user': { body: { activeSocialAccounts: ['youtube'] } } }));
    await expect(provider.listChannels({ apiKey: KEY })).resolves.toEqual([{ id: 'a:youtube', platform: 'youtube', name: 'youtube', username: null, active: true }]);
    expect(server.seen[0]!.headers['profile-key']).toBeUndefined();
  });

  it('nothing linked is an empty list', async () => {
    server.route(routes({ 'GET /api/user': { body: { email: 'someone@example.com' } } }));
    await expect(provider.listChannels(credentials)).resolves.toEqual([]);
  });

  it('401 is auth and the key is not in the message', async () => {
    server.route(routes({ 'GET /api/user': { status: 401, body: { status: 'error', code: 102, message: `API Key not valid: ${KEY}` } } }));
    const error = await failure(provider.listChannels(credentials));
    expect(error.kind).toBe('auth');
    expect(server.seen).toHaveLength(1);
  });

  it('displayNames of the wrong shape is bad_response', async () => {
    server.route(routes({ 'GET /api/user': { body: { displayNames: [{ id: 1 }] } } }));
    expect((await failure(provider.listChannels(credentials))).kind).toBe('bad_response');
  });
});

describe('createPost', () => {
  it('now: POST /post with post, platforms (X as twitter), mediaUrls, isVideo and idempotencyKey; published results', async () => {
    server.route(
      routes({
        'POST /api/post': {
          body: {
            status: 'success',
            id: 'ayr_1',
            refId: 'ref',
            postIds: [
              { platform: 'twitter', status: 'success', id: '1789', postUrl: 'https://x.com/brand/status/1789' },
              { platform: 'tiktok', status: 'success', id: '7301', postUrl: 'https://www.tiktok.com/@brand/video/7301' },
            ],
            errors: [],
          },
        },
      }),
    );
    const post = await provider.createPost(credentials, input());
    expect(server.seen).toHaveLength(1);
    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'POST', path: '/api/post' });
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['profile-key']).toBe(PROFILE_KEY);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      post: 'Watch this reaction!\nSecond line',
      platforms: ['twitter', 'tiktok'],
      mediaUrls: ['https://media.example/v/final.mp4?X-Amz-Signature=abc'],
      isVideo: true,
      idempotencyKey: 'post_123',
    });
    expect(post).toEqual({
      providerPostId: 'ayr_1',
      status: 'published',
      results: [result('x', 'published', 'https://x.com/brand/status/1789'), result('tiktok', 'published', 'https://www.tiktok.com/@brand/video/7301')],
    });
  });

  it('scheduled: scheduleDate in UTC to the second with Z; pending results', async () => {
    server.route(routes({ 'POST /api/post': { body: { status: 'scheduled', id: 'ayr_2', scheduleDate: '2025-07-01T09:30:00Z', post: 'x' } } }));
    const post = await provider.createPost(credentials, input({ scheduleAt: new Date('2025-07-01T11:30:15.789+02:00') }));
    expect((server.seen[0]!.body as Record<string, unknown>).scheduleDate).toBe('2025-07-01T09:30:15Z');
    expect((server.seen[0]!.body as Record<string, unknown>).requiresApproval).toBeUndefined();
    expect(post).toEqual({ providerPostId: 'ayr_2', status: 'scheduled', results: [result('x', 'pending'), result('tiktok', 'pending')] });
  });

  it('draft: requiresApproval, answered awaiting approval → draft', async () => {
    server.route(routes({ 'POST /api/post': { body: { status: 'awaiting approval', id: 'ayr_3' } } }));
    const post = await provider.createPost(credentials, input({ draft: true }));
    const body = server.seen[0]!.body as Record<string, unknown>;
    expect(body.requiresApproval).toBe(true);
    expect(body.scheduleDate).toBeUndefined();
    expect(post.status).toBe('draft');
    expect(post.results.map((r) => r.status)).toEqual(['pending', 'pending']);
  });

  it('a YouTube channel gets the caption\'s first line as its title', async () => {
    server.route(routes({ 'POST /api/post': { body: { status: 'scheduled', id: 'ayr_4' } } }));
    await provider.createPost(credentials, input({ channels: [channel('youtube')], caption: `\n  ${'T'.repeat(120)}\nmore`, scheduleAt: NOW }));
    expect((server.seen[0]!.body as Record<string, unknown>).youTubeOptions).toEqual({ title: 'T'.repeat(100) });
  });

  it('now, as Ayrshare answers it: success per network, a TikTok copy with id "pending" → publishing (not final), that channel pending', async () => {
    server.route(
      routes({
        'POST /api/post': {
          body: {
            status: 'success',
            id: 'ayr_tt',
            postIds: [
              { platform: 'twitter', status: 'success', id: '1789', postUrl: 'https://x.com/brand/status/1789' },
              { platform: 'tiktok', status: 'success', id: 'pending' },
            ],
            errors: [],
          },
        },
      }),
    );
    const post = await provider.createPost(credentials, input());
    expect(post).toEqual({
      providerPostId: 'ayr_tt',
      status: 'publishing',
      results: [result('x', 'published', 'https://x.com/brand/status/1789'), result('tiktok', 'pending')],
    });
  });

  it('a copy still processing beside a refused one is publishing, not partially_published (final)', async () => {
    server.route(
      routes({
        'POST /api/post': {
          status: 400,
          body: {
            status: 'error',
            id: 'ayr_mix',
            postIds: [{ platform: 'tiktok', status: 'success', id: 'pending' }],
            errors: [{ action: 'post', status: 'error', code: 110, message: 'Duplicate post', platform: 'twitter' }],
          },
        },
      }),
    );
    const post = await provider.createPost(credentials, input());
    expect(post.status).toBe('publishing');
    expect(post.results).toEqual([result('x', 'failed', null, 'Duplicate post (code 110)'), result('tiktok', 'pending')]);
  });

  it('sends the owner\'s X app as X-Twitter-OAuth1-Api-Key/-Secret when the connection has one, and never quotes them', async () => {
    const withX: ProviderCredentials = { ...credentials, xApp: { apiKey: 'X-CONSUMER-KEY-123', apiSecret: 'X-CONSUMER-SECRET-456' } };
    server.route(routes({ 'POST /api/post': { status: 400, body: { status: 'error', code: 101, message: 'bad X-CONSUMER-SECRET-456 X-CONSUMER-KEY-123' } } }));
    const error = await providerFailure(provider.createPost(withX, input()), { provider: 'provider_a', secrets: [KEY, PROFILE_KEY, 'X-CONSUMER-KEY-123', 'X-CONSUMER-SECRET-456'] });
    expect(error.kind).toBe('rejected');
    expect(server.seen[0]!.headers['x-twitter-oauth1-api-key']).toBe('X-CONSUMER-KEY-123');
    expect(server.seen[0]!.headers['x-twitter-oauth1-api-secret']).toBe('X-CONSUMER-SECRET-456');
    server.route(routes({ 'POST /api/post': { body: { status: 'scheduled', id: 'ayr_nox' } } }));
    await provider.createPost(credentials, input({ scheduleAt: NOW }));
    expect(server.seen[1]!.headers['x-twitter-oauth1-api-key']).toBeUndefined();
  });

  it('partial failure (status error + errors[], HTTP 400): the refused channel fails, the rest is published', async () => {
    server.route(
      routes({
        'POST /api/post': {
          status: 400,
          body: {
            status: 'error',
            id: 'ayr_5',
            postIds: [{ platform: 'twitter', status: 'success', id: '1', postUrl: 'https://x.com/brand/status/1' }],
            errors: [{ action: 'post', status: 'error', code: 110, message: 'Duplicate post', platform: 'tiktok' }],
          },
        },
      }),
    );
    const post = await provider.createPost(credentials, input());
    expect(post).toEqual({
      providerPostId: 'ayr_5',
      status: 'partially_published',
      results: [result('x', 'published', 'https://x.com/brand/status/1'), result('tiktok', 'failed', null, 'Duplicate post (code 110)')],
    });
    // A partial failure is an answer, not a reason to send the post again.
    expect(server.seen).toHaveLength(1);
  });

  it('partial failure of a scheduled post: refused channel failed, the others still scheduled', async () => {
    server.route(
      routes({
        'POST /api/post': {
          body: { status: 'error', id: 'ayr_6', errors: [{ action: 'post', code: 161, message: 'Facebook authorization expired', platform: 'facebook' }] },
        },
      }),
    );
    const post = await provider.createPost(credentials, input({ channels: [channel('facebook'), channel('instagram')], scheduleAt: NOW }));
    expect(post).toEqual({
      providerPostId: 'ayr_6',
      status: 'scheduled',
      results: [result('facebook', 'failed', null, 'Facebook authorization expired (code 161)'), result('instagram', 'pending')],
    });
  });

  it('nothing accepted (every channel refused) is thrown as rejected with the reasons', async () => {
    server.route(
      routes({
        'POST /api/post': {
          status: 400,
          body: {
            status: 'error',
            errors: [
              { code: 137, message: 'Video too long', platform: 'twitter' },
              { code: 110, message: 'Duplicate post', platform: 'tiktok' },
            ],
          },
        },
      }),
    );
    const error = await failure(provider.createPost(credentials, input()));
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect(error.message).toContain('x: Video too long (code 137)');
    expect(error.message).toContain('tiktok: Duplicate post (code 110)');
  });

  it('a plain validation error (no errors[]) is rejected with Ayrshare\'s message', async () => {
    server.route(routes({ 'POST /api/post': { status: 400, body: { status: 'error', code: 101, message: 'Missing or incorrect parameters' } } }));
    const error = await failure(provider.createPost(credentials, input()));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('Missing or incorrect parameters');
  });

  it('5xx is retried (the idempotencyKey makes that safe) with the same body', async () => {
    server.route(routes({ 'POST /api/post': [{ status: 502 }, { body: { status: 'scheduled', id: 'ayr_7' } }] }));
    const post = await provider.createPost(credentials, input({ scheduleAt: NOW }));
    expect(post.providerPostId).toBe('ayr_7');
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.body).toEqual(server.seen[0]!.body);
  });

  it('429 with Retry-After, then success', async () => {
    server.route(routes({ 'POST /api/post': [{ status: 429, headers: { 'retry-after': '3' } }, { body: { status: 'scheduled', id: 'ayr_8' } }] }));
    await expect(provider.createPost(credentials, input({ scheduleAt: NOW }))).resolves.toMatchObject({ providerPostId: 'ayr_8' });
    expect(sleeps).toEqual([3_000]);
  });

  it('5xx every time gives up as unavailable', async () => {
    server.route(routes({ 'POST /api/post': { status: 500, body: { status: 'error', message: 'Internal error' } } }));
    const error = await failure(provider.createPost(credentials, input()));
    expect(error.kind).toBe('unavailable');
    expect(server.seen).toHaveLength(3);
  });

  it('a slow server is timeout', async () => {
    provider = createProviderA({ baseUrl: apiUrl(), http: { attemptTimeoutMs: 250, maxAttempts: 2, sleep: async () => undefined } });
    server.route(routes({ 'POST /api/post': { delayMs: 3_000, body: { status: 'scheduled', id: 'late' } } }));
    expect((await failure(provider.createPost(credentials, input()))).kind).toBe('timeout');
  });

  it('a success body without the expected fields is bad_response', async () => {
    server.route(routes({ 'POST /api/post': { body: { id: 5 } } }));
    expect((await failure(provider.createPost(credentials, input()))).kind).toBe('bad_response');
  });
});

describe('getPost', () => {
  function answer(status: string, extra: Record<string, unknown> = {}) {
    return { body: { id: 'ayr_9', status, platforms: ['twitter', 'tiktok'], postIds: [], errors: [], type: 'scheduled', ...extra } };
  }

  const cases: [string, string][] = [
    ['pending', 'scheduled'],
    ['paused', 'scheduled'],
    ['awaiting approval', 'draft'],
    ['processing', 'publishing'],
    ['deleted', 'deleted'],
  ];
  it.each(cases)('upstream %s → %s', async (upstream, ours) => {
    server.route(routes({ 'GET /api/post/ayr_9': answer(upstream) }));
    const post = await provider.getPost(credentials, 'ayr_9');
    expect(post.status).toBe(ours);
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.seen[0]!.headers['profile-key']).toBe(PROFILE_KEY);
  });

  it('success with every network posted → published, urls from postIds', async () => {
    server.route(
      routes({
        'GET /api/post/ayr_9': answer('success', {
          postIds: [
            { platform: 'twitter', status: 'success', id: '1', postUrl: 'https://x.com/b/status/1' },
            { platform: 'tiktok', status: 'success', id: '2', postUrl: 'https://tiktok.com/@b/video/2' },
          ],
        }),
      }),
    );
    await expect(provider.getPost(credentials, 'ayr_9')).resolves.toEqual({
      providerPostId: 'ayr_9',
      status: 'published',
      results: [result('x', 'published', 'https://x.com/b/status/1'), result('tiktok', 'published', 'https://tiktok.com/@b/video/2')],
    });
  });

  it('success with an errored network → partially_published', async () => {
    server.route(
      routes({
        'GET /api/post/ayr_9': answer('success', {
          postIds: [{ platform: 'twitter', status: 'success', id: '1', postUrl: 'https://x.com/b/status/1' }],
          errors: [{ platform: 'tiktok', code: 156, message: 'TikTok rejected the video' }],
        }),
      }),
    );
    const post = await provider.getPost(credentials, 'ayr_9');
    expect(post.status).toBe('partially_published');
    expect(post.results).toEqual([result('x', 'published', 'https://x.com/b/status/1'), result('tiktok', 'failed', null, 'TikTok rejected the video (code 156)')]);
  });

  it('error with one network posted → partially_published; error with none → failed', async () => {
    server.route(
      routes({
        'GET /api/post/ayr_9': [
          answer('error', { postIds: [{ platform: 'tiktok', status: 'success', id: '2', postUrl: 'https://tiktok.com/v/2' }], errors: [{ platform: 'twitter', message: 'Duplicate' }] }),
          answer('error', { errors: [{ platform: 'twitter', message: 'Duplicate' }] }),
        ],
      }),
    );
    const partial = await provider.getPost(credentials, 'ayr_9');
    expect(partial.status).toBe('partially_published');
    expect(partial.results).toEqual([result('x', 'failed', null, 'Duplicate'), result('tiktok', 'published', 'https://tiktok.com/v/2')]);
    const failed = await provider.getPost(credentials, 'ayr_9');
    expect(failed.status).toBe('failed');
    expect(failed.results).toEqual([result('x', 'failed', null, 'Duplicate'), result('tiktok', 'failed', null, 'not posted')]);
  });

  it('refreshed until every copy is final: the TikTok copy pending, then published with its URL', async () => {
    server.route(
      routes({
        'GET /api/post/ayr_9': [
          answer('success', { type: 'now', postIds: [{ platform: 'twitter', status: 'success', id: '1', postUrl: 'https://x.com/b/status/1' }, { platform: 'tiktok', status: 'success', id: 'pending' }] }),
          answer('success', {
            type: 'now',
            postIds: [
              { platform: 'twitter', status: 'success', id: '1', postUrl: 'https://x.com/b/status/1' },
              { platform: 'tiktok', status: 'success', id: '7301', postUrl: 'https://www.tiktok.com/@b/video/7301' },
            ],
          }),
          answer('error', {
            type: 'now',
            postIds: [{ platform: 'twitter', status: 'success', id: '1', postUrl: 'https://x.com/b/status/1' }],
            errors: [{ platform: 'tiktok', code: 110, message: 'TikTok rejected the video' }],
          }),
        ],
      }),
    );
    const first = await provider.getPost(credentials, 'ayr_9');
    expect(first).toEqual({ providerPostId: 'ayr_9', status: 'publishing', results: [result('x', 'published', 'https://x.com/b/status/1'), result('tiktok', 'pending')] });
    const second = await provider.getPost(credentials, 'ayr_9');
    expect(second.status).toBe('published');
    expect(second.results[1]).toEqual(result('tiktok', 'published', 'https://www.tiktok.com/@b/video/7301'));
    // Or the copy fails later: seen because the post was never taken as final.
    const third = await provider.getPost(credentials, 'ayr_9');
    expect(third.status).toBe('partially_published');
    expect(third.results[1]).toEqual(result('tiktok', 'failed', null, 'TikTok rejected the video (code 110)'));
  });

  it('a deleted post shows its channels deleted; pending ones stay pending while scheduled', async () => {
    server.route(routes({ 'GET /api/post/ayr_9': [answer('deleted'), answer('pending')] }));
    expect((await provider.getPost(credentials, 'ayr_9')).results).toEqual([result('x', 'deleted'), result('tiktok', 'deleted')]);
    expect((await provider.getPost(credentials, 'ayr_9')).results).toEqual([result('x', 'pending'), result('tiktok', 'pending')]);
  });

  it('an unknown status is bad_response', async () => {
    server.route(routes({ 'GET /api/post/ayr_9': answer('teleported') }));
    const error = await failure(provider.getPost(credentials, 'ayr_9'));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('teleported');
  });

  it('404 is not_found; the id is escaped into the path', async () => {
    server.route(() => ({ status: 404, body: { status: 'error', code: 136, message: 'Post not found' } }));
    expect((await failure(provider.getPost(credentials, 'a/b'))).kind).toBe('not_found');
    expect(server.seen[0]!.path).toBe('/api/post/a%2Fb');
  });
});

describe('deleteRule', () => {
  it('drafts and scheduled posts can be deleted', () => {
    expect(providerADeleteRule({ status: 'draft', results: [] })).toEqual({ allowed: true });
    expect(providerADeleteRule({ status: 'scheduled', results: [result('instagram', 'pending')] })).toEqual({ allowed: true });
  });

  it('a published post can be deleted when a published channel is on a network that allows it', () => {
    expect(providerADeleteRule({ status: 'published', results: [result('x', 'published'), result('instagram', 'published')] })).toEqual({ allowed: true });
    expect(providerADeleteRule({ status: 'partially_published', results: [result('youtube', 'published'), result('tiktok', 'failed')] })).toEqual({ allowed: true });
  });

  it('a post published only on Instagram/TikTok is refused, naming them', () => {
    const verdict = providerADeleteRule({ status: 'published', results: [result('instagram', 'published'), result('tiktok', 'published')] });
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toMatch(/Instagram and TikTok/);
    const single = providerADeleteRule({ status: 'partially_published', results: [result('tiktok', 'published'), result('x', 'failed')] });
    expect(!single.allowed && single.reason).toMatch(/TikTok/);
    expect(!single.allowed && single.reason).not.toMatch(/Instagram/);
  });

  it('failed, deleted and publishing posts are refused', () => {
    for (const status of ['failed', 'deleted', 'publishing'] as const) {
      const verdict = providerADeleteRule({ status, results: [] });
      expect(verdict.allowed).toBe(false);
      expect(!verdict.allowed && verdict.reason.length).toBeGreaterThan(10);
    }
  });

  it('the rule is decided before any call: a refusal sends nothing', async () => {
    server.route(routes({ 'DELETE /api/post': { body: { status: 'success' } } }));
    const post = { status: 'published' as const, results: [result('instagram', 'published')] };
    const verdict = provider.deleteRule(post);
    if (verdict.allowed) await provider.deletePost(credentials, 'ayr_9');
    expect(verdict.allowed).toBe(false);
    expect(server.seen).toHaveLength(0);
  });
});

describe('deletePost', () => {
  it('DELETE /post with the id in a JSON body', async () => {
    server.route(routes({ 'DELETE /api/post': { body: { status: 'success', twitter: { action: 'delete', status: 'success', id: '1' } } } }));
    await expect(provider.deletePost(credentials, 'ayr_9')).resolves.toBeUndefined();
    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'DELETE', path: '/api/post', body: { id: 'ayr_9' } });
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['profile-key']).toBe(PROFILE_KEY);
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('an upstream 400 is conflict (only the id was sent: the post\'s state forbids it)', async () => {
    server.route(routes({ 'DELETE /api/post': { status: 400, body: { status: 'error', code: 139, message: 'Post already deleted' } } }));
    const error = await failure(provider.deletePost(credentials, 'ayr_9'));
    expect(error.kind).toBe('conflict');
    expect(error.message).toContain('Post already deleted');
  });

  it('404 is not_found', async () => {
    server.route(routes({ 'DELETE /api/post': { status: 404, body: { status: 'error', message: 'Post not found' } } }));
    expect((await failure(provider.deletePost(credentials, 'nope'))).kind).toBe('not_found');
  });
});

describe('analytics', () => {
  const history = [
    // Today: two networks, camelCase metrics of each.
    {
      id: 'p_today',
      status: 'success',
      type: 'now',
      created: '2025-06-15T08:00:00Z',
      platforms: ['twitter', 'youtube'],
      postIds: [
        { platform: 'twitter', status: 'success', id: '1' },
        { platform: 'youtube', status: 'success', id: 'yt1' },
      ],
    },
    // Created before the window, scheduled into it: counted on the day it went out.
    {
      id: 'p_sched',
      status: 'error',
      type: 'scheduled',
      created: '2025-06-01T08:00:00Z',
      scheduleDate: { _seconds: Date.parse('2025-06-13T10:00:00Z') / 1000, _nanoseconds: 0 },
      postIds: [{ platform: 'tiktok', status: 'success', id: 't1' }],
      errors: [{ platform: 'instagram', message: 'nope' }],
    },
    // Its analytics are gone: still a post, with zeros.
    { id: 'p_gone', status: 'success', type: 'now', created: '2025-06-13T23:00:00Z', postIds: [{ platform: 'facebook', status: 'success', id: 'f1' }] },
    // Never published, deleted, or outside the window: not counted, not asked about.
    { id: 'p_failed', status: 'error', type: 'now', created: '2025-06-14T08:00:00Z', postIds: [], errors: [{ platform: 'twitter', message: 'x' }] },
    { id: 'p_deleted', status: 'deleted', type: 'now', created: '2025-06-14T08:00:00Z', postIds: [{ platform: 'twitter', status: 'success', id: '2' }] },
    { id: 'p_old', status: 'success', type: 'now', created: '2025-06-08T23:59:59Z', postIds: [{ platform: 'twitter', status: 'success', id: '3' }] },
    { id: 'p_pending', status: 'pending', type: 'scheduled', created: '2025-06-14T08:00:00Z', scheduleDate: '2025-06-20T08:00:00Z', postIds: [] },
  ];

  const perPost: Record<string, Reply> = {
    p_today: {
      body: {
        status: 'success',
        id: 'p_today',
        twitter: { id: '1', postUrl: 'https://x.com/1', analytics: { impressionCount: 500, likeCount: 10, replyCount: 2, retweetCount: 3 } },
        youtube: { id: 'yt1', analytics: { views: 100, likes: 5, comments: 1, shares: 0 } },
      },
    },
    p_sched: { body: { status: 'success', tiktok: { analytics: { videoViews: 1_000, likeCount: 50, commentsCount: 4, shareCount: 6 } } } },
    p_gone: { status: 404, body: { status: 'error', code: 136, message: 'Post not found' } },
  };

  it('GET /history?lastDays=, then POST /analytics/post per published post; summed per day of the window', async () => {
    server.route(
      routes({
        'GET /api/history': { body: history },
        'POST /api/analytics/post': (request) => perPost[(request.body as { id: string }).id] ?? { status: 500 },
      }),
    );
    const analytics = await provider.analytics(credentials, { days: 7, now: NOW });
    const [list, ...rest] = server.seen;
    expect(list).toMatchObject({ method: 'GET', path: '/api/history' });
    expect(list!.query.get('lastDays')).toBe('7');
    expect(list!.query.get('limit')).toBe('1000');
    expect(list!.headers['profile-key']).toBe(PROFILE_KEY);
    expect(rest.every((r) => r.method === 'POST' && r.path === '/api/analytics/post' && r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(rest.map((r) => (r.body as { id: string }).id).sort()).toEqual(['p_gone', 'p_sched', 'p_today']);
    const { posts, ...summed } = analytics;
    expect(summed).toEqual({
      totals: { views: 1_100, likes: 65, comments: 7, shares: 9, posts: 3 },
      daily: [
        { date: '2025-06-13', views: 1_000, likes: 50, comments: 4, shares: 6, posts: 2 },
        { date: '2025-06-15', views: 100, likes: 15, comments: 3, shares: 3, posts: 1 },
      ],
    });
    // The same figures post by post and network by network (Ayrshare names the network, not the channel), newest first.
    expect(posts).toHaveLength(4);
    expect(posts!.slice(0, 2)).toEqual([
      { post_id: 'p_today', channel_id: null, platform: 'x', date: '2025-06-15', views: 0, likes: 10, comments: 2, shares: 3 },
      { post_id: 'p_today', channel_id: null, platform: 'youtube', date: '2025-06-15', views: 100, likes: 5, comments: 1, shares: 0 },
    ]);
    expect(posts!.slice(2)).toEqual(
      expect.arrayContaining([
        { post_id: 'p_sched', channel_id: null, platform: 'tiktok', date: '2025-06-13', views: 1_000, likes: 50, comments: 4, shares: 6 },
        { post_id: 'p_gone', channel_id: null, platform: null, date: '2025-06-13', views: 0, likes: 0, comments: 0, shares: 0 },
      ]),
    );
  });

  it('a one-day window only keeps today', async () => {
    server.route(routes({ 'GET /api/history': { body: { history } }, 'POST /api/analytics/post': (request) => perPost[(request.body as { id: string }).id]! }));
    const analytics = await provider.analytics(credentials, { days: 1, now: NOW });
    expect(server.seen[0]!.query.get('lastDays')).toBe('1');
    expect(analytics.daily.map((d) => d.date)).toEqual(['2025-06-15']);
    expect(analytics.totals.posts).toBe(1);
  });

  it('no history is empty analytics', async () => {
    server.route(routes({ 'GET /api/history': { body: [] } }));
    await expect(provider.analytics(credentials, { days: 30, now: NOW })).resolves.toEqual({
      totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 },
      daily: [],
      posts: [],
    });
  });

  it('an analytics call that stays unavailable fails the pull', async () => {
    server.route(routes({ 'GET /api/history': { body: history.slice(0, 1) }, 'POST /api/analytics/post': { status: 503 } }));
    expect((await failure(provider.analytics(credentials, { days: 7, now: NOW }))).kind).toBe('unavailable');
  });
});
