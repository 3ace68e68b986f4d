/**
 * Social posts end to end: the local HTTP server, both provider sandboxes on loopback (started by the
 * local runtime and reached through PROVIDER_A/B_BASE_URL), connections made with sandbox keys, and
 * finished videos seeded as the pipeline's Finalize step stores them (record + MP4 + poster).
 * Sandbox posts go out a minute after they are due, on the sandbox clock, which the tests move.
 */
import type { Video } from '#domain/video';
import { ProviderError, type SocialProvider } from '#ports/social-provider';
import type { ProviderName } from '#domain/social';
import { expectError, type ApiClient } from '#test-support/local-stack';
import { connectSandbox, finishedVideoFiles, seedFinishedVideo, startSandboxStack, type FinishedVideoFiles, type SandboxChannel, type SandboxStack } from '#test-support/social';

const PUBLISH_DELAY_MS = 60_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let t: SandboxStack;
let files: FinishedVideoFiles;

beforeAll(async () => {
  [t, files] = await Promise.all([startSandboxStack(PUBLISH_DELAY_MS), finishedVideoFiles({ r: 200, g: 40, b: 90 })]);
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

const control = (provider: ProviderName) => t.control(provider);

afterEach(() => {
  t.resetSandboxes();
  t.social.reset();
});

const seedVideo = (accountId: number): Promise<Video> =>
  seedFinishedVideo(t.stack, accountId, { videoPath: files.videoPath, posterBytes: files.posterBytes, sizeBytes: files.videoBytes.length, jobIdBase: 5000, productId: 1 });

interface Publisher {
  accountId: number;
  api: ApiClient;
  apiKey: string;
  video: Video;
  /** Active channel id per platform. */
  channel: Record<string, string>;
  channels: SandboxChannel[];
}

/** A fresh account connected to `provider` with its own sandbox key, and a finished video. */
async function publisher(provider: ProviderName, options: { scopes?: ('read' | 'write' | 'publish')[] } = {}): Promise<Publisher> {
  const { accountId, api } = await t.newAccount(options.scopes ? { scopes: options.scopes } : {});
  const connected = await connectSandbox(api, accountId, provider, 'posts');
  return { accountId, api, ...connected, video: await seedVideo(accountId) };
}

const PROVIDERS = ['provider_a', 'provider_b'] as const;
/**
 * What each provider shows while a post sent "now" to TikTok and YouTube is going out: Ayrshare
 * publishes YouTube at once and answers the TikTok copy `id: "pending"`; Post for Me is processing.
 */
const WAITING_NOW: Record<ProviderName, string> = { provider_a: 'publishing', provider_b: 'publishing' };

async function createPost(p: Publisher, provider: ProviderName, fields: Record<string, unknown> = {}) {
  return p.api.post('/social/posts', {
    provider,
    video_id: p.video.id,
    account_ids: [p.channel.tiktok, p.channel.youtube],
    caption: 'Watch till the end 😮 #reaction',
    ...fields,
  });
}

/** The provider's own copy of the post, as its sandbox holds it. */
function upstreamPost(provider: ProviderName, providerPostId: string): Record<string, any> | undefined {
  return provider === 'provider_a'
    ? (t.stack.sandboxes!.providerA.control.post(providerPostId) as Record<string, any> | undefined)
    : (t.stack.sandboxes!.providerB.control.post(providerPostId) as Record<string, any> | undefined);
}

const mediaUrlOf = (provider: ProviderName, upstream: Record<string, any>): string =>
  provider === 'provider_a' ? upstream.mediaUrls[0] : upstream.media[0].url;

const DELETE_ROUTE: Record<ProviderName, string> = { provider_a: 'DELETE /api/post', provider_b: 'DELETE /v1/social-posts/:id' };
const CREATE_ROUTE: Record<ProviderName, string> = { provider_a: 'POST /api/post', provider_b: 'POST /v1/social-posts' };

describe.each(PROVIDERS)('POST /social/posts on %s', (provider) => {
  test('publishes now: 201 with the post and one pending result per channel, then published with urls once it went out', async () => {
    const p = await publisher(provider);
    const res = await createPost(p, provider);
    expect(res.status).toBe(201);
    const post = res.body.data;
    expect(post).toEqual({
      id: expect.any(Number),
      provider,
      provider_post_id: expect.any(String),
      video_id: p.video.id,
      account_ids: [p.channel.tiktok, p.channel.youtube],
      caption: 'Watch till the end 😮 #reaction',
      schedule_at: null,
      draft: false,
      status: WAITING_NOW[provider],
      results: [
        // Pending until its network has processed it, then published with its URL (below).
        { account_id: p.channel.tiktok, platform: 'tiktok', status: 'pending', url: null, error: null },
        provider === 'provider_a'
          ? { account_id: p.channel.youtube, platform: 'youtube', status: 'published', url: expect.stringMatching(/^https:\/\/youtube\.com\//), error: null }
          : { account_id: p.channel.youtube, platform: 'youtube', status: 'pending', url: null, error: null },
      ],
      stale: false,
      stale_reason: null,
      refreshed_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    // The provider got our post id as its external id, and a media URL that serves the video itself.
    const upstream = upstreamPost(provider, post.provider_post_id)!;
    expect(upstream).toBeDefined();
    if (provider === 'provider_b') expect(upstream.external_id).toBe(String(post.id));
    const media = await fetch(mediaUrlOf(provider, upstream));
    expect(Buffer.from(await media.arrayBuffer()).equals(files.videoBytes)).toBe(true);

    const before = await p.api.get(`/social/posts/${post.id}`);
    expect(before.body.data.status).toBe(WAITING_NOW[provider]);

    control(provider).advance(PUBLISH_DELAY_MS + 5_000);
    const after = await p.api.get(`/social/posts/${post.id}`);
    expect(after.status).toBe(200);
    expect(after.body.data.status).toBe('published');
    expect(after.body.data.stale).toBe(false);
    for (const result of after.body.data.results) {
      expect(result).toEqual({ account_id: expect.any(String), platform: expect.any(String), status: 'published', url: expect.stringMatching(/^https:\/\//), error: null });
    }
    expect(Date.parse(after.body.data.refreshed_at)).toBeGreaterThanOrEqual(Date.parse(post.refreshed_at));

    // Final: reading it again asks the provider nothing.
    control(provider).resetCounters();
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('published');
    expect(control(provider).count()).toBe(0);
  });

  test('schedules: status scheduled until its time, media URL valid until a day past it, then published', async () => {
    const p = await publisher(provider);
    const at = new Date(Date.now() + 2 * HOUR);
    // An offset other than Z is accepted and stored in UTC.
    const local = new Date(at.getTime() + 2 * HOUR).toISOString().replace('Z', '+02:00');
    const res = await createPost(p, provider, { schedule_at: local });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'scheduled', schedule_at: at.toISOString(), draft: false });
    const upstream = upstreamPost(provider, res.body.data.provider_post_id)!;
    const expires = Number(new URL(mediaUrlOf(provider, upstream)).searchParams.get('X-Amz-Expires'));
    expect(expires).toBeGreaterThanOrEqual(2 * 3600 + 86_400 - 60);
    expect(expires).toBeLessThanOrEqual(2 * 3600 + 86_400 + 60);

    control(provider).advance(HOUR);
    expect((await p.api.get(`/social/posts/${res.body.data.id}`)).body.data.status).toBe('scheduled');
    control(provider).advance(HOUR + PUBLISH_DELAY_MS + 5_000);
    const out = await p.api.get(`/social/posts/${res.body.data.id}`);
    expect(out.body.data.status).toBe('published');
    expect(out.body.data.results.map((r: { status: string }) => r.status)).toEqual(['published', 'published']);
  });

  test('a draft stays a draft: the provider holds it and it never goes out by itself', async () => {
    const p = await publisher(provider);
    const res = await createPost(p, provider, { draft: true });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'draft', draft: true });
    control(provider).advance(3 * HOUR);
    const later = await p.api.get(`/social/posts/${res.body.data.id}`);
    expect(later.body.data).toMatchObject({ status: 'draft', stale: false });
    expect(later.body.data.results.every((r: { status: string }) => r.status === 'pending')).toBe(true);
  });

  test('a form-encoded body: comma-separated account_ids and draft=true', async () => {
    const p = await publisher(provider);
    const body = new URLSearchParams({ provider, video_id: String(p.video.id), account_ids: `${p.channel.tiktok},${p.channel.instagram}`, caption: 'form post', draft: 'true' });
    const res = await p.api.send('POST', '/social/posts', { body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ draft: true, status: 'draft', account_ids: [p.channel.tiktok, p.channel.instagram], caption: 'form post' });
  });

  test('a channel that fails at the network: partially_published, its result failed with the reason', async () => {
    const p = await publisher(provider);
    control(provider).failPlatform('youtube', { message: 'YouTube refused the upload' });
    const res = await createPost(p, provider);
    expect(res.status).toBe(201);
    control(provider).advance(PUBLISH_DELAY_MS + 5_000);
    const out = (await p.api.get(`/social/posts/${res.body.data.id}`)).body.data;
    expect(out.status).toBe('partially_published');
    expect(out.results).toEqual([
      { account_id: p.channel.tiktok, platform: 'tiktok', status: 'published', url: expect.any(String), error: null },
      { account_id: p.channel.youtube, platform: 'youtube', status: 'failed', url: null, error: expect.stringMatching(/\S/) },
    ]);
  });

  test('the provider down: 503 upstream_unavailable with Retry-After, and nothing is stored', async () => {
    const p = await publisher(provider);
    control(provider).outage(1000, 0);
    const res = await createPost(p, provider);
    expectError(res, 503, 'upstream_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    control(provider).clearFaults();
    expect((await p.api.get('/social/posts')).body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
  });

  test.each(['json', 'shape'] as const)('a malformed provider answer (%s) is a 503, never a 500, and nothing is stored', async (kind) => {
    const p = await publisher(provider);
    control(provider).malformed(1, kind);
    const res = await createPost(p, provider);
    expectError(res, 503, 'upstream_unavailable');
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await p.api.get('/social/posts')).body.meta.total).toBe(0);
  });

  test('the provider rate limiting us: 429 rate_limited with its Retry-After, nothing stored', async () => {
    const p = await publisher(provider);
    control(provider).rateLimit(10, 120);
    const res = await createPost(p, provider);
    expectError(res, 429, 'rate_limited');
    expect(res.headers.get('retry-after')).toBe('120');
    control(provider).clearFaults();
    expect((await p.api.get('/social/posts')).body.meta.total).toBe(0);
  });

  test('the provider refusing the stored key: 409 reconnect, and the connection shows the error', async () => {
    const p = await publisher(provider);
    const real = t.social.real(provider);
    const refusing: SocialProvider = {
      ...real,
      name: real.name,
      deleteRule: real.deleteRule,
      createPost: async () => {
        throw new ProviderError(provider, 'auth', 'key refused');
      },
    };
    t.social.use(provider, refusing);
    const res = await createPost(p, provider);
    expectError(res, 409, 'conflict');
    expect(res.body.error).toContain(`PUT /social/connections/${provider}`);
    const listed = (await p.api.get('/social/connections')).body.data;
    expect(listed.find((c: { provider: string }) => c.provider === provider).status).toBe('error');
    // Until it is connected again, posting is refused before the provider is asked.
    t.social.reset();
    expectError(await createPost(p, provider), 409, 'conflict');
  });

  test('the provider refusing the post (its validation) is a 400 with its reason', async () => {
    const p = await publisher(provider);
    const real = t.social.real(provider);
    t.social.use(provider, {
      ...real,
      name: real.name,
      deleteRule: real.deleteRule,
      createPost: async () => {
        throw new ProviderError(provider, 'rejected', 'the caption contains a banned word');
      },
    });
    const res = await createPost(p, provider);
    expectError(res, 400, 'bad_request');
    expect(res.body.error).toContain('banned word');
  });
});

describe('POST /social/posts checks before the provider is asked', () => {
  test('field errors are 400s naming the field', async () => {
    const p = await publisher('provider_a');
    const base = { provider: 'provider_a', video_id: p.video.id, account_ids: [p.channel.tiktok] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, provider: 'provider_c' }, 'provider'],
      [{ video_id: p.video.id, account_ids: [p.channel.tiktok] }, 'provider'],
      [{ ...base, video_id: 'abc' }, 'video_id'],
      [{ ...base, account_ids: [] }, 'account_ids'],
      [{ ...base, account_ids: p.channel.tiktok }, 'account_ids'],
      [{ ...base, account_ids: [p.channel.tiktok, p.channel.tiktok] }, 'account_ids'],
      [{ ...base, caption: 42 }, 'caption'],
      [{ ...base, draft: 'true' }, 'draft'],
      [{ ...base, schedule_at: '2030-01-01T10:00:00' }, 'schedule_at'],
      [{ ...base, schedule_at: new Date(Date.now() - MINUTE).toISOString() }, 'schedule_at'],
      [{ ...base, schedule_at: new Date(Date.now() + 366 * 24 * HOUR).toISOString() }, 'schedule_at'],
      [{ ...base, title: 'x' }, 'title'],
    ];
    control('provider_a').resetCounters();
    for (const [body, field] of cases) {
      const res = await p.api.post('/social/posts', body);
      expectError(res, 400, 'bad_request');
      expect(res.body.error).toContain(field);
    }
    expect(control('provider_a').count(CREATE_ROUTE.provider_a)).toBe(0);
  });

  test('a provider that is not connected is a 409 saying how to connect it', async () => {
    const p = await publisher('provider_a');
    const res = await p.api.post('/social/posts', { provider: 'provider_b', video_id: p.video.id, account_ids: ['spc_1'], caption: 'Hi' });
    expectError(res, 409, 'conflict');
    expect(res.body.error).toContain('PUT /social/connections/provider_b');
  });

  test('an unknown or foreign video_id is a 404 naming video_id', async () => {
    const p = await publisher('provider_b');
    const stranger = await publisher('provider_b');
    for (const videoId of [stranger.video.id, 999_999_999]) {
      const res = await p.api.post('/social/posts', { provider: 'provider_b', video_id: videoId, account_ids: [p.channel.tiktok], caption: 'Hi' });
      expectError(res, 404, 'not_found');
      expect(res.body.error).toContain('video_id');
    }
  });

  test('account_ids outside the connection’s active channels are a 400 naming them', async () => {
    const p = await publisher('provider_b');
    const inactive = p.channels.find((c) => !c.active)!;
    expect(inactive).toBeDefined();
    const stranger = await publisher('provider_b');
    const res = await p.api.post('/social/posts', {
      provider: 'provider_b',
      video_id: p.video.id,
      account_ids: [p.channel.tiktok, 'spc_nope', inactive.id, stranger.channel.youtube],
      caption: 'Hi',
    });
    expectError(res, 400, 'bad_request');
    expect(res.body.error).toContain('account_ids');
    for (const id of ['spc_nope', inactive.id, stranger.channel.youtube]) expect(res.body.error).toContain(id);
    expect(res.body.error).not.toContain(p.channel.tiktok);
  });

  test('provider_b (Post for Me requires a caption) refuses an empty or missing caption with a 400 naming caption; provider_a takes it', async () => {
    const p = await publisher('provider_b');
    control('provider_b').resetCounters();
    for (const caption of [undefined, '', '   ']) {
      const res = await p.api.post('/social/posts', { provider: 'provider_b', video_id: p.video.id, account_ids: [p.channel.tiktok], ...(caption === undefined ? {} : { caption }) });
      expectError(res, 400, 'bad_request');
      expect(res.body.error).toMatch(/caption.*provider_b requires a caption/);
    }
    expect(control('provider_b').count(CREATE_ROUTE.provider_b)).toBe(0);
    const a = await publisher('provider_a');
    expect((await a.api.post('/social/posts', { provider: 'provider_a', video_id: a.video.id, account_ids: [a.channel.tiktok] })).status).toBe(201);
  });

  test('an X channel of provider_a needs the connection\'s X app: 400 naming it and the fix; with one, the X copy goes out', async () => {
    const { accountId, api } = await t.newAccount();
    const apiKey = `sandbox_a_x_${process.pid}_${accountId}`;
    t.stack.sandboxes!.providerA.control.linkPlatforms(apiKey, ['twitter', 'facebook']);
    expect([200, 201]).toContain((await api.put('/social/connections/provider_a', { api_key: apiKey })).status);
    const video = await seedVideo(accountId);
    control('provider_a').resetCounters();
    const refused = await api.post('/social/posts', { provider: 'provider_a', video_id: video.id, account_ids: ['a:x', 'a:facebook'], caption: 'Hi' });
    expectError(refused, 400, 'bad_request');
    expect(refused.body.error).toMatch(/account_ids: a:x: .*x_api_key and x_api_secret/);
    expect(control('provider_a').count(CREATE_ROUTE.provider_a)).toBe(0);

    expectError(await api.put('/social/connections/provider_a', { api_key: apiKey, x_api_key: 'x-consumer-key' }), 400, 'bad_request');
    expect((await api.put('/social/connections/provider_a', { api_key: apiKey, x_api_key: 'x-consumer-key', x_api_secret: 'x-consumer-secret' })).status).toBe(200);
    const sent = await api.post('/social/posts', { provider: 'provider_a', video_id: video.id, account_ids: ['a:x'], caption: 'Hi' });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ status: 'published', results: [{ account_id: 'a:x', status: 'published', url: expect.stringMatching(/^https:\/\/x\.com\//) }] });
    expect(JSON.stringify((await api.get('/social/connections')).body)).not.toContain('x-consumer-secret');
  });

  test('a caption over the strictest limit of the chosen channels is a 400 naming the network and limit', async () => {
    const p = await publisher('provider_b');
    const long = 'a'.repeat(2201);
    const res = await p.api.post('/social/posts', { provider: 'provider_b', video_id: p.video.id, account_ids: [p.channel.facebook, p.channel.instagram], caption: long });
    expectError(res, 400, 'bad_request');
    expect(res.body.error).toMatch(/caption.*instagram.*2200/);
    // Facebook alone takes it.
    const fine = await p.api.post('/social/posts', { provider: 'provider_b', video_id: p.video.id, account_ids: [p.channel.facebook], caption: long, draft: true });
    expect(fine.status).toBe(201);

    // X, once its account is connected upstream and the channels are synced: 280.
    t.stack.sandboxes!.providerB.control.setAccountStatus(p.apiKey, 'x', 'connected');
    expect((await p.api.post('/social/accounts/sync', { provider: 'provider_b' })).status).toBe(200);
    const synced = (await p.api.get('/social/connections')).body.data[0].channels as Publisher['channels'];
    const x = synced.find((c) => c.platform === 'x')!;
    const tweet = await p.api.post('/social/posts', { provider: 'provider_b', video_id: p.video.id, account_ids: [p.channel.tiktok, x.id], caption: 'b'.repeat(281) });
    expectError(tweet, 400, 'bad_request');
    expect(tweet.body.error).toMatch(/caption.*x takes at most 280/);
  });

  test('a key without the publish scope cannot post or delete (403), but can read', async () => {
    const owner = await publisher('provider_a');
    const created = await createPost(owner, 'provider_a', { draft: true });
    const { api: readWrite } = await t.newAccount({ scopes: ['read', 'write'] });
    expectError(await readWrite.post('/social/posts', { provider: 'provider_a', video_id: 1, account_ids: ['a:tiktok'] }), 403, 'forbidden');
    expectError(await readWrite.delete(`/social/posts/${created.body.data.id}`), 403, 'forbidden');
    expect((await readWrite.get('/social/posts')).status).toBe(200);
  });
});

describe('reading posts', () => {
  test('lists newest first with page, per_page and total; a page past the end is empty', async () => {
    const p = await publisher('provider_b');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createPost(p, 'provider_b', { draft: true, caption: `post ${i}` })).body.data.id);
    const newestFirst = [...ids].reverse();
    const first = await p.api.get('/social/posts?per_page=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((x: { id: number }) => x.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 3 });
    const second = await p.api.get('/social/posts?page=2&per_page=2');
    expect(second.body.data.map((x: { id: number }) => x.id)).toEqual(newestFirst.slice(2));
    expect((await p.api.get('/social/posts?page=3&per_page=2')).body).toEqual({ data: [], meta: { page: 3, per_page: 2, total: 3 } });
    for (const q of ['page=0', 'per_page=0', 'per_page=101', 'page=x']) expectError(await p.api.get(`/social/posts?${q}`), 400, 'bad_request');
  });

  test('the list refreshes posts that are going out', async () => {
    const p = await publisher('provider_a');
    const created = (await createPost(p, 'provider_a')).body.data;
    control('provider_a').advance(PUBLISH_DELAY_MS + 5_000);
    const listed = (await p.api.get('/social/posts')).body.data;
    expect(listed).toEqual([expect.objectContaining({ id: created.id, status: 'published', stale: false })]);
  });

  test('another account’s post is a 404; a non-integer id is a 400', async () => {
    const owner = await publisher('provider_a');
    const post = (await createPost(owner, 'provider_a', { draft: true })).body.data;
    const stranger = await publisher('provider_a');
    expectError(await stranger.api.get(`/social/posts/${post.id}`), 404, 'not_found');
    expectError(await stranger.api.delete(`/social/posts/${post.id}`), 404, 'not_found');
    expect((await stranger.api.get('/social/posts')).body.meta.total).toBe(0);
    expectError(await owner.api.get('/social/posts/abc'), 400, 'bad_request');
    expect(upstreamPost('provider_a', post.provider_post_id)?.status).toBe('awaiting approval');
  });

  test.each(PROVIDERS)('%s unreachable while a post is going out: the stored post, marked stale with the reason', async (provider) => {
    const p = await publisher(provider);
    const created = (await createPost(p, provider)).body.data;
    control(provider).outage(1000, 0);
    const res = await p.api.get(`/social/posts/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, status: WAITING_NOW[provider], stale: true, stale_reason: { code: 'upstream_unavailable' } });
    expect((await p.api.get('/social/posts')).body.data[0]).toMatchObject({ id: created.id, stale: true });

    control(provider).clearFaults();
    control(provider).malformed(5, 'shape');
    const garbled = await p.api.get(`/social/posts/${created.id}`);
    expect(garbled.status).toBe(200);
    expect(garbled.body.data).toMatchObject({ stale: true, stale_reason: { code: 'upstream_unavailable' } });

    control(provider).clearFaults();
    const fresh = await p.api.get(`/social/posts/${created.id}`);
    expect(fresh.body.data).toMatchObject({ stale: false, stale_reason: null });
  });
  test('a provider slower than our refresh deadline: the stored post comes back, marked stale, instead of a hung request', async () => {
    const p = await publisher('provider_b');
    const created = (await createPost(p, 'provider_b')).body.data;
    // Slower than the 8 s refresh deadline on every attempt: a fresh answer would only come after 12 s,
    // so a stale one proves the request gave up at its deadline instead of hanging on the provider.
    control('provider_b').slow(12_000);
    const res = await p.api.get(`/social/posts/${created.id}`);
    control('provider_b').slow(0);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, stale: true, stale_reason: { code: 'upstream_unavailable' } });
  }, 30_000);
});

describe('DELETE /social/posts/{id}', () => {
  test.each([
    ['provider_a', { schedule_at: () => new Date(Date.now() + HOUR).toISOString() }],
    ['provider_a', { draft: true }],
    ['provider_b', { schedule_at: () => new Date(Date.now() + HOUR).toISOString() }],
    ['provider_b', { draft: true }],
  ] as const)('%s removes a post that has not gone out (%j): 200, kept as deleted; again: 200, no second call', async (provider, fields) => {
    const p = await publisher(provider);
    const body = 'schedule_at' in fields ? { schedule_at: fields.schedule_at() } : fields;
    const post = (await createPost(p, provider, body)).body.data;
    control(provider).resetCounters();
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: post.id, deleted: true } });
    expect(control(provider).count(DELETE_ROUTE[provider])).toBe(1);
    const after = (await p.api.get(`/social/posts/${post.id}`)).body.data;
    expect(after.status).toBe('deleted');
    expect(after.results.every((r: { status: string }) => r.status === 'deleted')).toBe(true);
    if (provider === 'provider_a') expect(upstreamPost(provider, post.provider_post_id)?.status).toBe('deleted');
    else expect(upstreamPost(provider, post.provider_post_id)).toBeUndefined();

    // It does not come back when the clock passes its time.
    control(provider).advance(2 * HOUR);
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('deleted');
    const again = await p.api.delete(`/social/posts/${post.id}`);
    expect(again.body).toEqual({ data: { id: post.id, deleted: true } });
    expect(control(provider).count(DELETE_ROUTE[provider])).toBe(1);
  });

  test('provider_a removes a published post; copies on Instagram/TikTok stay up and show so', async () => {
    const p = await publisher('provider_a');
    const post = (await createPost(p, 'provider_a')).body.data;
    control('provider_a').advance(PUBLISH_DELAY_MS + 5_000);
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('published');
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expect(res.status).toBe(200);
    const after = (await p.api.get(`/social/posts/${post.id}`)).body.data;
    expect(after.status).toBe('deleted');
    expect(after.results.map((r: { platform: string; status: string }) => [r.platform, r.status])).toEqual([
      ['tiktok', 'published'],
      ['youtube', 'deleted'],
    ]);
  });

  test('provider_a refuses a published post that is only on Instagram/TikTok: 409 naming the rule, no upstream DELETE', async () => {
    const p = await publisher('provider_a');
    const post = (await createPost(p, 'provider_a', { account_ids: [p.channel.tiktok, p.channel.instagram] })).body.data;
    control('provider_a').advance(PUBLISH_DELAY_MS + 5_000);
    control('provider_a').resetCounters();
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expectError(res, 409, 'conflict');
    expect(res.body.error).toMatch(/TikTok|Instagram/);
    expect(control('provider_a').count('DELETE')).toBe(0);
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('published');
  });

  test('provider_a refuses a failed post: 409, no upstream DELETE', async () => {
    const p = await publisher('provider_a');
    control('provider_a').failPlatform('tiktok');
    const post = (await createPost(p, 'provider_a', { account_ids: [p.channel.tiktok] })).body.data;
    control('provider_a').advance(PUBLISH_DELAY_MS + 5_000);
    control('provider_a').resetCounters();
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expectError(res, 409, 'conflict');
    expect(res.body.error).toContain('failed');
    expect(control('provider_a').count('DELETE')).toBe(0);
  });

  test('provider_b refuses a published post: 409 naming its rule, no upstream DELETE', async () => {
    const p = await publisher('provider_b');
    const post = (await createPost(p, 'provider_b')).body.data;
    control('provider_b').advance(PUBLISH_DELAY_MS + 5_000);
    control('provider_b').resetCounters();
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expectError(res, 409, 'conflict');
    expect(res.body.error).toContain('draft or scheduled');
    expect(control('provider_b').count('DELETE')).toBe(0);
    // The state it judged was refreshed first: the post had gone out meanwhile.
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('published');
  });

  test('provider_b refusing upstream (the post went out between our read and the delete) is a 409 too', async () => {
    const p = await publisher('provider_b');
    const post = (await createPost(p, 'provider_b', { schedule_at: new Date(Date.now() + HOUR).toISOString() })).body.data;
    const real = t.social.real('provider_b');
    // The refresh still sees it scheduled; the provider itself has moved on when the delete arrives.
    t.social.use('provider_b', {
      ...real,
      name: real.name,
      deleteRule: real.deleteRule,
      deletePost: async () => {
        throw new ProviderError('provider_b', 'conflict', 'Can only delete draft or scheduled posts');
      },
    });
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expectError(res, 409, 'conflict');
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('scheduled');
  });

  test.each(PROVIDERS)('%s down at delete time: 503 with Retry-After, the post is unchanged', async (provider) => {
    const p = await publisher(provider);
    const post = (await createPost(p, provider, { draft: true })).body.data;
    control(provider).outage(1000, 0);
    const res = await p.api.delete(`/social/posts/${post.id}`);
    expectError(res, 503, 'upstream_unavailable');
    expect(res.headers.get('retry-after')).toBeTruthy();
    control(provider).clearFaults();
    expect((await p.api.get(`/social/posts/${post.id}`)).body.data.status).toBe('draft');
  });
});
