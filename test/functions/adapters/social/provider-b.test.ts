/**
 * provider_b (Post for Me-shaped) against a loopback HTTP server written here: the exact requests it
 * sends under /v1, account pagination (and that tokens never leave the adapter), create payloads and
 * the external_id reconciliation, status and per-channel result mapping, the delete rule, and the
 * analytics roll-up over account feeds.
 */
import { createProviderB, providerBDeleteRule } from '#adapters/social/provider-b';
import { createSocialProviders } from '#adapters/social/registry';
import { socialBaseUrlsFromEnv } from '#functions/config';
import type { Channel, ProviderCredentials } from '#domain/social';
import type { ChannelResult } from '#domain/social-post';
import type { CreatePostInput, SocialProvider } from '#ports/social-provider';
import { routes, useLoopbackServer, type Reply, type Seen } from '#test-support/loopback-server';
import { providerFailure } from '#test-support/social-provider';

const server = useLoopbackServer({ notFound: (request) => ({ status: 404, body: { statusCode: 404, message: `no route for ${request.method} ${request.path}` } }) });

/** Post for Me's offset pagination over `items`, honouring ?limit&offset. */
function paged(items: unknown[]): (request: Seen) => Reply {
  return (request) => {
    const limit = Number(request.query.get('limit') ?? 10);
    const offset = Number(request.query.get('offset') ?? 0);
    const data = items.slice(offset, offset + limit);
    const next = offset + limit < items.length ? `https://elsewhere.example/v1/next?offset=${offset + limit}` : null;
    return { body: { data, meta: { limit, offset, total: items.length, next } } };
  };
}

const KEY = 'pfm_live_SECRET_abcdef0123456789';
const credentials: ProviderCredentials = { apiKey: KEY };
const NOW = new Date('2025-06-15T12:00:00Z');

let sleeps: number[];
let provider: SocialProvider;

function account(id: string, platform: string, status = 'connected', username: string | null = `${id}_user`) {
  return {
    id,
    platform,
    username,
    user_id: `uid_${id}`,
    status,
    external_id: null,
    metadata: {},
    access_token: `tok_access_${id}`,
    refresh_token: `tok_refresh_${id}`,
    access_token_expires_at: '2025-07-01T00:00:00Z',
    refresh_token_expires_at: null,
  };
}

function channel(id: string, platform: Channel['platform']): Channel {
  return { id, platform, name: id, username: null, active: true };
}

function input(overrides: Partial<CreatePostInput> = {}): CreatePostInput {
  return {
    caption: 'Watch this reaction!',
    channels: [channel('spc_tt', 'tiktok'), channel('spc_ig', 'instagram')],
    media: { url: 'https://media.example/v/final.mp4?sig=1', thumbnailUrl: 'https://media.example/v/poster.jpg', sizeBytes: 1_000, fileName: 'final.mp4' },
    scheduleAt: null,
    draft: false,
    externalId: 'post_456',
    ...overrides,
  };
}

function socialPost(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'sp_1',
    caption: 'Watch this reaction!',
    status,
    scheduled_at: null,
    media: [],
    social_accounts: [account('spc_tt', 'tiktok'), account('spc_ig', 'instagram')],
    external_id: 'post_456',
    platform_configurations: null,
    account_configurations: null,
    created_at: '2025-06-15T11:00:00Z',
    updated_at: '2025-06-15T11:00:00Z',
    ...extra,
  };
}

function postResult(accountId: string, success: boolean, extra: Record<string, unknown> = {}) {
  return { id: `spr_${accountId}`, post_id: 'sp_1', social_account_id: accountId, success, error: null, details: {}, platform_data: success ? { id: `net_${accountId}`, url: `https://net.example/${accountId}` } : null, ...extra };
}

function result(channelId: string, platform: Channel['platform'], status: ChannelResult['status'], url: string | null = null, error: string | null = null): ChannelResult {
  return { channelId, platform, status, url, error };
}

const failure = (promise: Promise<unknown>) => providerFailure(promise, { provider: 'provider_b', secrets: [KEY, 'tok_'] });

beforeEach(() => {
  sleeps = [];
  provider = createProviderB({
    baseUrl: server.url,
    http: { attemptTimeoutMs: 1_000, maxAttempts: 3, random: () => 0, sleep: async (ms) => void sleeps.push(ms) },
  });
});

describe('configuration', () => {
  it('the base URL comes from PROVIDER_B_BASE_URL, read by the wiring and passed to the registry', async () => {
    server.route(routes({ 'GET /v1/social-accounts': paged([]) }));
    const social = createSocialProviders({ baseUrls: socialBaseUrlsFromEnv({ PROVIDER_B_BASE_URL: server.url }) });
    await expect(social('provider_b').listChannels(credentials)).resolves.toEqual([]);
    expect(server.seen.map((r) => r.path)).toEqual(['/v1/social-accounts']);
  });
});

describe('listChannels', () => {
  it('follows the offset pages to the end, never the next URL itself; tokens never come back', async () => {
    const accounts = Array.from({ length: 205 }, (_, i) => account(`spc_${i}`, i % 2 ? 'tiktok' : 'instagram'));
    server.route(routes({ 'GET /v1/social-accounts': paged(accounts) }));
    const channels = await provider.listChannels(credentials);
    expect(channels).toHaveLength(205);
    expect(server.seen.map((r) => [r.method, r.path, r.query.get('limit'), r.query.get('offset')])).toEqual([
      ['GET', '/v1/social-accounts', '100', '0'],
      ['GET', '/v1/social-accounts', '100', '100'],
      ['GET', '/v1/social-accounts', '100', '200'],
    ]);
    for (const request of server.seen) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(channels[1]).toEqual({ id: 'spc_1', platform: 'tiktok', name: 'spc_1_user', username: 'spc_1_user', active: true });
    const text = JSON.stringify(channels);
    expect(text).not.toContain('tok_');
    expect(text).not.toContain('access_token');
    for (const c of channels) expect(Object.keys(c).sort()).toEqual(['active', 'id', 'name', 'platform', 'username']);
  });

  it('stops on total when meta has no next field', async () => {
    const accounts = [account('spc_a', 'x'), account('spc_b', 'youtube')];
    server.route(
      routes({
        'GET /v1/social-accounts': (request) => {
          const offset = Number(request.query.get('offset'));
          return { body: { data: accounts.slice(offset, offset + 1), meta: { limit: 1, offset, total: 2 } } };
        },
      }),
    );
    expect((await provider.listChannels(credentials)).map((c) => c.id)).toEqual(['spc_a', 'spc_b']);
    expect(server.seen.map((r) => r.query.get('offset'))).toEqual(['0', '1']);
  });

  it('disconnected is inactive, tiktok_business is tiktok, unknown networks are left out', async () => {
    server.route(
      routes({
        'GET /v1/social-accounts': paged([
          account('spc_1', 'tiktok_business'),
          account('spc_2', 'facebook', 'disconnected', null),
          account('spc_3', 'myspace'),
        ]),
      }),
    );
    await expect(provider.listChannels(credentials)).resolves.toEqual([
      { id: 'spc_1', platform: 'tiktok', name: 'spc_1_user', username: 'spc_1_user', active: true },
      { id: 'spc_2', platform: 'facebook', name: 'spc_2', username: null, active: false },
    ]);
  });

  it('401 is auth and neither the key nor a token is in the message', async () => {
    server.route(routes({ 'GET /v1/social-accounts': { status: 401, body: { statusCode: 401, message: `Invalid API key ${KEY}` } } }));
    const error = await failure(provider.listChannels(credentials));
    expect(error.kind).toBe('auth');
    expect(server.seen).toHaveLength(1);
  });

  it('a page without data[] is bad_response', async () => {
    server.route(routes({ 'GET /v1/social-accounts': { body: { items: [] } } }));
    expect((await failure(provider.listChannels(credentials))).kind).toBe('bad_response');
  });
});

describe('createPost', () => {
  it('now: POST /v1/social-posts with caption, account ids, media with thumbnail, scheduled_at null, isDraft false, external_id', async () => {
    server.route(routes({ 'POST /v1/social-posts': { body: socialPost('processing') }, 'GET /v1/social-post-results': paged([]) }));
    const post = await provider.createPost(credentials, input());
    const [create] = server.seen;
    expect(create).toMatchObject({ method: 'POST', path: '/v1/social-posts' });
    expect(create!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(create!.headers['content-type']).toBe('application/json');
    expect(create!.body).toEqual({
      caption: 'Watch this reaction!',
      social_accounts: ['spc_tt', 'spc_ig'],
      media: [{ url: 'https://media.example/v/final.mp4?sig=1', thumbnail_url: 'https://media.example/v/poster.jpg' }],
      scheduled_at: null,
      isDraft: false,
      external_id: 'post_456',
    });
    expect(post).toEqual({
      providerPostId: 'sp_1',
      status: 'publishing',
      results: [result('spc_tt', 'tiktok', 'pending'), result('spc_ig', 'instagram', 'pending')],
    });
    expect(JSON.stringify(post)).not.toContain('tok_');
  });

  it('scheduled: scheduled_at is the ISO time; no thumbnail_url when there is no poster; no results call', async () => {
    server.route(routes({ 'POST /v1/social-posts': { body: socialPost('scheduled', { scheduled_at: '2025-07-01T09:30:00.000Z' }) } }));
    const post = await provider.createPost(credentials, input({ scheduleAt: new Date('2025-07-01T09:30:00Z'), media: { ...input().media, thumbnailUrl: null } }));
    const body = server.seen[0]!.body as Record<string, unknown>;
    expect(body.scheduled_at).toBe('2025-07-01T09:30:00.000Z');
    expect(body.media).toEqual([{ url: 'https://media.example/v/final.mp4?sig=1' }]);
    expect(post.status).toBe('scheduled');
    expect(server.seen).toHaveLength(1);
  });

  it('draft: isDraft true → draft', async () => {
    server.route(routes({ 'POST /v1/social-posts': { body: socialPost('draft') } }));
    const post = await provider.createPost(credentials, input({ draft: true }));
    expect((server.seen[0]!.body as Record<string, unknown>).isDraft).toBe(true);
    expect(post.status).toBe('draft');
    expect(post.results.map((r) => r.status)).toEqual(['pending', 'pending']);
  });

  it('a validation 400 is rejected with the provider\'s errors', async () => {
    server.route(routes({ 'POST /v1/social-posts': { status: 400, body: { statusCode: 400, message: 'Invalid Request', errors: ['media.0.url must be a URL'] } } }));
    const error = await failure(provider.createPost(credentials, input()));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('media.0.url must be a URL');
    expect(server.seen).toHaveLength(1);
  });

  it('a 5xx is not sent again (no idempotency key); the post made anyway is found by external_id', async () => {
    server.route(
      routes({
        'POST /v1/social-posts': { status: 500, body: { statusCode: 500, message: 'Internal Server Error' } },
        'GET /v1/social-posts': { body: { data: [socialPost('scheduled', { id: 'sp_other', external_id: 'someone_else' }), socialPost('scheduled')], meta: {} } },
      }),
    );
    const post = await provider.createPost(credentials, input({ scheduleAt: NOW }));
    expect(post).toMatchObject({ providerPostId: 'sp_1', status: 'scheduled' });
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/social-posts', 'GET /v1/social-posts']);
    expect(server.seen[1]!.query.get('external_id')).toBe('post_456');
  });

  it('a 5xx with no post made upstream is unavailable, after one POST', async () => {
    server.route(routes({ 'POST /v1/social-posts': { status: 503 }, 'GET /v1/social-posts': { body: { data: [], meta: {} } } }));
    const error = await failure(provider.createPost(credentials, input()));
    expect(error.kind).toBe('unavailable');
    expect(server.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a slow create is timeout, after one POST and the lookup', async () => {
    provider = createProviderB({ baseUrl: server.url, http: { attemptTimeoutMs: 250, maxAttempts: 2, sleep: async () => undefined } });
    server.route(routes({ 'POST /v1/social-posts': { delayMs: 3_000, body: socialPost('scheduled') }, 'GET /v1/social-posts': { body: { data: [], meta: {} } } }));
    expect((await failure(provider.createPost(credentials, input()))).kind).toBe('timeout');
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('429 with Retry-After is retried even though the POST is not otherwise repeated', async () => {
    server.route(routes({ 'POST /v1/social-posts': [{ status: 429, headers: { 'retry-after': '2' } }, { body: socialPost('scheduled') }] }));
    await expect(provider.createPost(credentials, input({ scheduleAt: NOW }))).resolves.toMatchObject({ status: 'scheduled' });
    expect(sleeps).toEqual([2_000]);
    expect(server.seen).toHaveLength(2);
  });
});

describe('getPost', () => {
  const statuses: [string, string][] = [
    ['draft', 'draft'],
    ['scheduled', 'scheduled'],
  ];
  it.each(statuses)('%s → %s, without asking for results', async (upstream, ours) => {
    server.route(routes({ 'GET /v1/social-posts/sp_1': { body: socialPost(upstream) } }));
    const post = await provider.getPost(credentials, 'sp_1');
    expect(post.status).toBe(ours);
    expect(post.results).toEqual([result('spc_tt', 'tiktok', 'pending'), result('spc_ig', 'instagram', 'pending')]);
    expect(server.seen.map((r) => r.path)).toEqual(['/v1/social-posts/sp_1']);
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('processing → publishing, with the results so far', async () => {
    server.route(routes({ 'GET /v1/social-posts/sp_1': { body: socialPost('processing') }, 'GET /v1/social-post-results': paged([postResult('spc_tt', true)]) }));
    const post = await provider.getPost(credentials, 'sp_1');
    expect(post.status).toBe('publishing');
    expect(post.results).toEqual([result('spc_tt', 'tiktok', 'published', 'https://net.example/spc_tt'), result('spc_ig', 'instagram', 'pending')]);
    const resultsCall = server.seen[1]!;
    expect(resultsCall.path).toBe('/v1/social-post-results');
    expect(resultsCall.query.get('post_id')).toBe('sp_1');
  });

  it('processed with every result a success → published with the network URLs', async () => {
    server.route(
      routes({ 'GET /v1/social-posts/sp_1': { body: socialPost('processed') }, 'GET /v1/social-post-results': paged([postResult('spc_tt', true), postResult('spc_ig', true)]) }),
    );
    await expect(provider.getPost(credentials, 'sp_1')).resolves.toEqual({
      providerPostId: 'sp_1',
      status: 'published',
      results: [result('spc_tt', 'tiktok', 'published', 'https://net.example/spc_tt'), result('spc_ig', 'instagram', 'published', 'https://net.example/spc_ig')],
    });
  });

  it('processed with some failures → partially_published, the error kept per channel', async () => {
    server.route(
      routes({
        'GET /v1/social-posts/sp_1': { body: socialPost('processed') },
        'GET /v1/social-post-results': paged([postResult('spc_tt', true), postResult('spc_ig', false, { error: 'Instagram: media aspect ratio not supported' })]),
      }),
    );
    const post = await provider.getPost(credentials, 'sp_1');
    expect(post.status).toBe('partially_published');
    expect(post.results[1]).toEqual(result('spc_ig', 'instagram', 'failed', null, 'Instagram: media aspect ratio not supported'));
  });

  it('processed with every result failed → failed (object errors read as text)', async () => {
    server.route(
      routes({
        'GET /v1/social-posts/sp_1': { body: socialPost('processed') },
        'GET /v1/social-post-results': paged([postResult('spc_tt', false, { error: { message: 'token expired' } }), postResult('spc_ig', false)]),
      }),
    );
    const post = await provider.getPost(credentials, 'sp_1');
    expect(post.status).toBe('failed');
    expect(post.results.map((r) => r.error)).toEqual(['token expired', 'the network refused the post']);
  });

  it('processed while an account has no result yet → still publishing', async () => {
    server.route(routes({ 'GET /v1/social-posts/sp_1': { body: socialPost('processed') }, 'GET /v1/social-post-results': paged([postResult('spc_tt', true)]) }));
    expect((await provider.getPost(credentials, 'sp_1')).status).toBe('publishing');
  });

  it('results are paged like every list', async () => {
    const accounts = Array.from({ length: 120 }, (_, i) => account(`spc_${i}`, 'tiktok'));
    server.route(
      routes({
        'GET /v1/social-posts/sp_1': { body: socialPost('processed', { social_accounts: accounts }) },
        'GET /v1/social-post-results': paged(accounts.map((a) => postResult(a.id, true))),
      }),
    );
    const post = await provider.getPost(credentials, 'sp_1');
    expect(post.status).toBe('published');
    expect(server.seen.filter((r) => r.path === '/v1/social-post-results').map((r) => r.query.get('offset'))).toEqual(['0', '100']);
  });

  it('accounts given as bare ids are resolved through the account list', async () => {
    server.route(
      routes({
        'GET /v1/social-posts/sp_1': { body: socialPost('scheduled', { social_accounts: ['spc_tt', 'spc_ig'] }) },
        'GET /v1/social-accounts': paged([account('spc_tt', 'tiktok'), account('spc_ig', 'instagram')]),
      }),
    );
    const post = await provider.getPost(credentials, 'sp_1');
    expect(post.results).toEqual([result('spc_tt', 'tiktok', 'pending'), result('spc_ig', 'instagram', 'pending')]);
  });

  it('an unknown status is bad_response; 404 is not_found', async () => {
    server.route(routes({ 'GET /v1/social-posts/sp_1': { body: socialPost('exploded') } }));
    expect((await failure(provider.getPost(credentials, 'sp_1'))).kind).toBe('bad_response');
    server.route(routes({ 'GET /v1/social-posts/sp_2': { status: 404, body: { statusCode: 404, message: 'Post not found' } } }));
    const error = await failure(provider.getPost(credentials, 'sp_2'));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('Post not found');
  });
});

describe('deleteRule', () => {
  it('draft and scheduled only', () => {
    expect(providerBDeleteRule({ status: 'draft', results: [] })).toEqual({ allowed: true });
    expect(providerBDeleteRule({ status: 'scheduled', results: [] })).toEqual({ allowed: true });
    for (const status of ['publishing', 'published', 'partially_published', 'failed', 'deleted'] as const) {
      const verdict = providerBDeleteRule({ status, results: [] });
      expect(verdict.allowed).toBe(false);
      expect(!verdict.allowed && verdict.reason).toContain('Can only delete draft or scheduled posts');
    }
  });

  it('a refused delete never reaches the provider', async () => {
    server.route(routes({ 'DELETE /v1/social-posts/sp_1': { body: { success: true } } }));
    const verdict = provider.deleteRule({ status: 'published', results: [result('spc_tt', 'tiktok', 'published')] });
    if (verdict.allowed) await provider.deletePost(credentials, 'sp_1');
    expect(verdict.allowed).toBe(false);
    expect(server.seen).toHaveLength(0);
  });
});

describe('deletePost', () => {
  it('DELETE /v1/social-posts/{id}, answered {success: true}', async () => {
    server.route(routes({ 'DELETE /v1/social-posts/sp_1': { body: { success: true } } }));
    await expect(provider.deletePost(credentials, 'sp_1')).resolves.toBeUndefined();
    expect(server.seen[0]).toMatchObject({ method: 'DELETE', path: '/v1/social-posts/sp_1', body: undefined });
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('the upstream refusal (400 "Can only delete draft or scheduled posts") is conflict', async () => {
    server.route(routes({ 'DELETE /v1/social-posts/sp_1': { status: 400, body: { statusCode: 400, message: 'Can only delete draft or scheduled posts' } } }));
    const error = await failure(provider.deletePost(credentials, 'sp_1'));
    expect(error).toMatchObject({ kind: 'conflict', status: 400 });
    expect(error.message).toContain('Can only delete draft or scheduled posts');
  });

  it('{success: false} is conflict; 404 is not_found; an empty 204 is success', async () => {
    server.route(routes({ 'DELETE /v1/social-posts/sp_1': [{ body: { success: false } }, { status: 404, body: { message: 'Post not found' } }, { status: 204 }] }));
    expect((await failure(provider.deletePost(credentials, 'sp_1'))).kind).toBe('conflict');
    expect((await failure(provider.deletePost(credentials, 'sp_1'))).kind).toBe('not_found');
    await expect(provider.deletePost(credentials, 'sp_1')).resolves.toBeUndefined();
  });
});

describe('analytics', () => {
  const feeds: Record<string, unknown[][]> = {
    // TikTok, two pages; newest first.
    spc_tt: [
      [
        { platform: 'tiktok', social_post_id: 'sp_1', platform_post_id: 't1', posted_at: '2025-06-15T09:00:00Z', metrics: { view_count: 1_000, like_count: 100, comment_count: 10, share_count: 5 } },
        { platform: 'tiktok', social_post_id: null, platform_post_id: 't2', posted_at: '2025-06-14T09:00:00Z', metrics: { view_count: 50, like_count: 5, comment_count: 0, share_count: 1 } },
      ],
      [
        { platform: 'tiktok', social_post_id: 'sp_old', platform_post_id: 't3', posted_at: '2025-06-10T09:00:00Z', metrics: { view_count: 7, like_count: 1, comment_count: 1, share_count: 1 } },
        { platform: 'tiktok', platform_post_id: 't4', posted_at: '2025-05-01T09:00:00Z', metrics: { view_count: 9_999 } },
      ],
      // A page wholly older than the window: fetched, then paging stops.
      [{ platform: 'tiktok', platform_post_id: 't5', posted_at: '2025-04-01T09:00:00Z', metrics: { view_count: 9_999 } }],
      [{ platform: 'tiktok', platform_post_id: 't6', posted_at: '2025-03-01T09:00:00Z', metrics: { view_count: 9_999 } }],
    ],
    // Instagram, one page: the same post sp_1 (counted once in posts), a future-dated item ignored.
    spc_ig: [
      [
        { platform: 'instagram', social_post_id: 'sp_1', platform_post_id: 'i1', posted_at: '2025-06-15T09:05:00Z', metrics: { views: 300, likes: 30, comments: 3, shares: 2, reach: 999 } },
        { platform: 'instagram', platform_post_id: 'i2', posted_at: '2025-06-16T09:00:00Z', metrics: { views: 9_999 } },
      ],
    ],
  };

  function feedRoute(request: Seen): Reply | undefined {
    const match = /^\/v1\/social-account-feeds\/([^/]+)$/.exec(request.path);
    if (!match) return undefined;
    const pages = feeds[match[1]!];
    if (!pages) return { status: 404, body: { message: 'account not found' } };
    const index = Number(request.query.get('cursor') ?? '0');
    const hasMore = index + 1 < pages.length;
    return { body: { data: pages[index], meta: { cursor: hasMore ? String(index + 1) : '', limit: 50, next: hasMore ? 'https://elsewhere.example/next' : null, has_more: hasMore } } };
  }

  it('reads each connected account\'s feed by cursor and sums the window per day', async () => {
    server.route((request) =>
      request.path === '/v1/social-accounts'
        ? paged([account('spc_tt', 'tiktok'), account('spc_ig', 'instagram'), account('spc_off', 'youtube', 'disconnected')])(request)
        : feedRoute(request),
    );
    const analytics = await provider.analytics(credentials, { days: 7, now: NOW });
    const feedCalls = server.seen.filter((r) => r.path.startsWith('/v1/social-account-feeds/'));
    expect(feedCalls.map((r) => `${r.path} cursor=${r.query.get('cursor')}`).sort()).toEqual([
      '/v1/social-account-feeds/spc_ig cursor=null',
      '/v1/social-account-feeds/spc_tt cursor=1',
      '/v1/social-account-feeds/spc_tt cursor=2',
      '/v1/social-account-feeds/spc_tt cursor=null',
    ]);
    for (const call of feedCalls) {
      expect(call.method).toBe('GET');
      expect(call.query.get('expand')).toBe('metrics');
      expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    }
    const { posts, ...summed } = analytics;
    expect(summed).toEqual({
      totals: { views: 1_357, likes: 136, comments: 14, shares: 9, posts: 3 },
      daily: [
        { date: '2025-06-10', views: 7, likes: 1, comments: 1, shares: 1, posts: 1 },
        { date: '2025-06-14', views: 50, likes: 5, comments: 0, shares: 1, posts: 1 },
        { date: '2025-06-15', views: 1_300, likes: 130, comments: 13, shares: 7, posts: 1 },
      ],
    });
    // Post by post and channel by channel (a feed is one channel's); a post Post for Me did not make keeps the feed's own key.
    const byPost = (a: { post_id: string; channel_id: string | null }, b: typeof a) => `${a.post_id}/${a.channel_id}`.localeCompare(`${b.post_id}/${b.channel_id}`);
    expect([...posts!].sort(byPost)).toEqual(
      [
        { post_id: 'sp_1', channel_id: 'spc_ig', platform: null, date: '2025-06-15', views: 300, likes: 30, comments: 3, shares: 2 },
        { post_id: 'sp_1', channel_id: 'spc_tt', platform: null, date: '2025-06-15', views: 1_000, likes: 100, comments: 10, shares: 5 },
        { post_id: 'sp_old', channel_id: 'spc_tt', platform: null, date: '2025-06-10', views: 7, likes: 1, comments: 1, shares: 1 },
        { post_id: 'spc_tt:t2', channel_id: 'spc_tt', platform: null, date: '2025-06-14', views: 50, likes: 5, comments: 0, shares: 1 },
      ].sort(byPost),
    );
  });

  it('the days window moves the cut: 2 days keeps yesterday and today', async () => {
    server.route((request) => (request.path === '/v1/social-accounts' ? paged([account('spc_tt', 'tiktok')])(request) : feedRoute(request)));
    const analytics = await provider.analytics(credentials, { days: 2, now: NOW });
    expect(analytics.daily.map((d) => d.date)).toEqual(['2025-06-14', '2025-06-15']);
    expect(analytics.totals).toEqual({ views: 1_050, likes: 105, comments: 10, shares: 6, posts: 2 });
    // The second page is already older than the window: no third page.
    expect(server.seen.filter((r) => r.path.startsWith('/v1/social-account-feeds/'))).toHaveLength(2);
  });

  it('an account whose feed is refused (404) is skipped, the others count', async () => {
    server.route((request) => {
      if (request.path === '/v1/social-accounts') return paged([account('spc_none', 'youtube'), account('spc_ig', 'instagram')])(request);
      return feedRoute(request);
    });
    const analytics = await provider.analytics(credentials, { days: 1, now: NOW });
    expect(analytics.totals.views).toBe(300);
    expect(analytics.skipped).toEqual([{ channelId: 'spc_none', reason: expect.stringContaining('404') }]);
  });

  it('one account\'s failing feed (Post for Me answers any feed failure with a 500) skips that account, not the provider', async () => {
    server.route((request) => {
      if (request.path === '/v1/social-accounts') return paged([account('spc_tt', 'tiktok'), account('spc_ig', 'instagram')])(request);
      if (request.path === '/v1/social-account-feeds/spc_tt') return { status: 500, body: { statusCode: 500, message: 'Internal server error' } };
      return feedRoute(request);
    });
    const analytics = await provider.analytics(credentials, { days: 1, now: NOW });
    expect(analytics.totals).toEqual({ views: 300, likes: 30, comments: 3, shares: 2, posts: 1 });
    expect(analytics.skipped).toEqual([{ channelId: 'spc_tt', reason: expect.stringContaining('HTTP 500') }]);
  });

  it('an account whose feed fails after its first page is not half counted', async () => {
    server.route((request) => {
      if (request.path === '/v1/social-accounts') return paged([account('spc_tt', 'tiktok'), account('spc_ig', 'instagram')])(request);
      if (request.path === '/v1/social-account-feeds/spc_tt' && request.query.get('cursor') === '1') return { status: 500, body: { statusCode: 500 } };
      return feedRoute(request);
    });
    const analytics = await provider.analytics(credentials, { days: 7, now: NOW });
    expect(analytics.totals.views).toBe(300);
    expect(analytics.skipped?.map((s) => s.channelId)).toEqual(['spc_tt']);
  });

  it('every account failing is the provider failing (unavailable), with the first reason', async () => {
    server.route((request) =>
      request.path === '/v1/social-accounts' ? paged([account('spc_tt', 'tiktok'), account('spc_ig', 'instagram')])(request) : { status: 500, body: { statusCode: 500 } },
    );
    expect((await failure(provider.analytics(credentials, { days: 1, now: NOW }))).kind).toBe('unavailable');
  });

  it('a feed 401 "requires new_pricing plan" (older plans) is a plan limit per account, never a key to reconnect', async () => {
    server.route((request) =>
      request.path === '/v1/social-accounts'
        ? paged([account('spc_ig', 'instagram')])(request)
        : { status: 401, body: { statusCode: 401, message: 'This feature requires new_pricing plan' } },
    );
    const analytics = await provider.analytics(credentials, { days: 1, now: NOW });
    expect(analytics.totals.posts).toBe(0);
    expect(analytics.skipped).toEqual([{ channelId: 'spc_ig', reason: expect.stringMatching(/new_pricing plan.*plan that includes them/) }]);
  });

  it('a key refused while listing the accounts is still auth', async () => {
    server.route(() => ({ status: 401, body: { message: 'Unauthorized' } }));
    expect((await failure(provider.analytics(credentials, { days: 1, now: NOW }))).kind).toBe('auth');
  });

  it('a feed page of the wrong shape is bad_response', async () => {
    server.route((request) => (request.path === '/v1/social-accounts' ? paged([account('spc_ig', 'instagram')])(request) : { body: { posts: [] } }));
    expect((await failure(provider.analytics(credentials, { days: 7, now: NOW }))).kind).toBe('bad_response');
  });
});
