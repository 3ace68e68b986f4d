/**
 * The production scheduling adapters against the provider sandboxes: each keeps the provider
 * contract (test/support/social-provider-contract.ts), which the use-case tests' fake keeps too. With
 * their retries on, a
 * rate limit with Retry-After is waited out (the wait injected, so nothing sleeps here) or, past the
 * cap, handed to the caller with its Retry-After; and Ayrshare's Profile-Key scopes every call to
 * that User Profile.
 */
import { createProviderA } from '#adapters/social/provider-a';
import { createProviderB } from '#adapters/social/provider-b';
import type { ProviderCredentials } from '#domain/social';
import type { CreatePostInput, SocialProvider } from '#ports/social-provider';
import { isProviderError } from '#ports/social-provider';
import {
  PROVIDER_A_KEY_PREFIX,
  PROVIDER_B_KEY_PREFIX,
  startProviderASandbox,
  startProviderBSandbox,
  type ProviderASandbox,
  type ProviderBSandbox,
} from '#local/sandboxes/index';
import { socialProviderContract } from '#test-support/social-provider-contract';

const MEDIA = { url: 'https://cdn.example.com/videos/reaction.mp4', thumbnailUrl: null, sizeBytes: 1_000_000, fileName: 'reaction.mp4' };

let a: ProviderASandbox;
let b: ProviderBSandbox;
/** The waits the adapters asked for, in ms, instead of waiting. */
let waits: number[];

beforeAll(async () => {
  [a, b] = await Promise.all([startProviderASandbox({ publishDelayMs: PUBLISH_DELAY_MS }), startProviderBSandbox({ publishDelayMs: PUBLISH_DELAY_MS })]);
});
afterAll(() => Promise.all([a.stop(), b.stop()]));
beforeEach(() => {
  waits = [];
});
afterEach(() => {
  a.control.reset();
  b.control.reset();
});

/** Retries on, as in production (4 attempts, a 20 s Retry-After cap, a 30 s deadline), but no real waits and no jitter. */
const http = { random: () => 0, sleep: async (ms: number) => void waits.push(ms) };

const PUBLISH_DELAY_MS = 60_000;

const SANDBOXES = [
  ['provider_a (Ayrshare)', () => createProviderA({ baseUrl: a.url, http }), () => a, 'sandbox_a_limits', 'POST /api/post'],
  ['provider_b (Post for Me)', () => createProviderB({ baseUrl: b.url, http }), () => b, 'sandbox_b_limits', 'POST /v1/social-posts'],
] as const;

let contractKeys = 0;

describe.each([
  ['provider_a (Ayrshare)', () => createProviderA({ baseUrl: a.url, http }), () => a, PROVIDER_A_KEY_PREFIX],
  ['provider_b (Post for Me)', () => createProviderB({ baseUrl: b.url, http }), () => b, PROVIDER_B_KEY_PREFIX],
] as const)('%s keeps the provider contract', (_name, adapter, sandbox, prefix) => {
  socialProviderContract(async () => ({
    provider: adapter(),
    // A key of its own: the sandbox keeps each key's channels and posts apart.
    credentials: { apiKey: `${prefix}contract_${process.pid}_${++contractKeys}` },
    refusedCredentials: { apiKey: 'not_a_sandbox_key' },
    publish: async () => sandbox().control.advance(PUBLISH_DELAY_MS + 1_000),
    refuseNext: (kind, retryAfterS) => (kind === 'rate_limited' ? sandbox().control.rateLimit(1, retryAfterS) : sandbox().control.outage(10, retryAfterS)),
  }));
});

async function post(provider: SocialProvider, credentials: ProviderCredentials, externalId: string) {
  const channels = (await provider.listChannels(credentials)).filter((c) => c.active && c.platform === 'facebook');
  const input: CreatePostInput = { caption: 'Limited', channels, media: MEDIA, scheduleAt: null, draft: false, externalId };
  return provider.createPost(credentials, input);
}

describe.each(SANDBOXES)('%s, rate limited with Retry-After', (_name, adapter, sandbox, apiKey, createRoute) => {
  test('two 429s with Retry-After: 3 are each waited out (no less than 3 s), then the post goes through once', async () => {
    const provider = adapter();
    const channels = (await provider.listChannels({ apiKey })).filter((c) => c.platform === 'facebook');
    sandbox().control.resetCounters();
    sandbox().control.rateLimit(2, 3);
    const created = await provider.createPost({ apiKey }, { caption: 'Limited', channels, media: MEDIA, scheduleAt: null, draft: false, externalId: 'limited-1' });
    expect(created.providerPostId).toEqual(expect.any(String));
    expect(waits).toEqual([3_000, 3_000]);
    // The create was sent three times; the two refused did nothing, so there is one post.
    expect(sandbox().control.count(createRoute)).toBe(3);
    const again = await provider.getPost({ apiKey }, created.providerPostId);
    expect(again.providerPostId).toBe(created.providerPostId);
  });

  test('a Retry-After past the cap is not waited for: rate_limited, with the seconds for our own caller', async () => {
    const provider = adapter();
    sandbox().control.rateLimit(1, 120);
    const error = await post(provider, { apiKey }, 'limited-2').catch((e: unknown) => e);
    expect(isProviderError(error) && { kind: error.kind, status: error.status, retryAfterS: error.retryAfterS }).toEqual({ kind: 'rate_limited', status: 429, retryAfterS: 120 });
    expect((error as Error).message).toMatch(/rate limiting us \(HTTP 429\); try again in 120 s/);
    expect(waits).toEqual([]);
  });

  test('still limited after every attempt: rate_limited after three waits', async () => {
    const provider = adapter();
    await provider.listChannels({ apiKey });
    sandbox().control.rateLimit(10, 1);
    const error = await provider.listChannels({ apiKey }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterS: 1 });
    expect(waits).toEqual([1_000, 1_000, 1_000]);
  });
});

describe('provider_a (Ayrshare) Profile-Key', () => {
  const apiKey = 'sandbox_a_profiles';

  test('each connection\'s Profile-Key scopes its channels and posts to that User Profile', async () => {
    const provider = createProviderA({ baseUrl: a.url, http });
    a.control.linkPlatforms(apiKey, ['tiktok', 'youtube'], 'client-7');
    const primary = { apiKey };
    const client7 = { apiKey, profileKey: 'client-7' };

    expect((await provider.listChannels(client7)).map((c) => c.platform)).toEqual(['tiktok', 'youtube']);
    expect((await provider.listChannels(primary)).map((c) => c.platform)).toEqual(['tiktok', 'instagram', 'youtube', 'facebook']);

    const channels = (await provider.listChannels(client7)).filter((c) => c.platform === 'youtube');
    const created = await provider.createPost(client7, { caption: 'For client 7', channels, media: MEDIA, scheduleAt: null, draft: false, externalId: 'p-7' });
    expect((await provider.getPost(client7, created.providerPostId)).providerPostId).toBe(created.providerPostId);
    // The primary profile (no Profile-Key) and another profile do not see it.
    await expect(provider.getPost(primary, created.providerPostId)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(provider.getPost({ apiKey, profileKey: 'client-8' }, created.providerPostId)).rejects.toMatchObject({ kind: 'not_found' });
    // What the sandbox keys its profiles by: the header on every one of client 7's calls.
    const headers = a.control.requests().map((r) => r.headers['profile-key'] ?? null);
    expect(headers.filter((h) => h === 'client-7')).toHaveLength(4);
  });
});
