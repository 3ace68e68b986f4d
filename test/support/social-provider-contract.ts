/**
 * What every SocialProvider must do, as the social use cases rely on it, run against the production
 * adapters talking to the local sandboxes and against the in-memory fake the use-case tests use
 * (test/doubles/memory/social-provider.ts), so the fake answers in the shapes the adapters do.
 */
import type { Channel, ProviderCredentials } from '#domain/social';
import type { ProviderPost } from '#domain/social-post';
import { isProviderError, type CreatePostInput, type ProviderErrorKind, type SocialProvider } from '#ports/social-provider';

const MEDIA = { url: 'https://cdn.example.com/videos/reaction.mp4', thumbnailUrl: null, sizeBytes: 1_000_000, fileName: 'reaction.mp4' };

/** One implementation, with an account of its own for each test. */
export interface ProviderUnderTest {
  provider: SocialProvider;
  /** An account of the provider's no other test uses, with channels linked. */
  credentials: ProviderCredentials;
  /** A key the provider does not take. */
  refusedCredentials: ProviderCredentials;
  /** The provider's own clock moves past the moment it sends `post` out (to every channel). */
  publish(post: ProviderPost): Promise<void>;
  /** The provider's next answers refuse: rate limited for `retryAfterS` past our retries, or unavailable. */
  refuseNext(kind: 'rate_limited' | 'unavailable', retryAfterS: number): void;
}

async function refusal(promise: Promise<unknown>): Promise<{ kind: ProviderErrorKind; provider: string; retryAfterS: number | null }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isProviderError(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return { kind: error.kind, provider: error.provider, retryAfterS: error.retryAfterS };
}

export function socialProviderContract(make: () => Promise<ProviderUnderTest>): void {
  let seq = 0;
  const inputFor = (channels: Channel[], fields: Partial<CreatePostInput> = {}): CreatePostInput => ({
    caption: 'A reaction',
    channels,
    media: MEDIA,
    scheduleAt: null,
    draft: false,
    externalId: `contract-${process.pid}-${++seq}`,
    ...fields,
  });
  /** The account's active channels, one per platform. */
  const activeChannels = async (t: ProviderUnderTest) => (await t.provider.listChannels(t.credentials)).filter((c) => c.active);
  /** One active Facebook channel: every provider publishes there, text and video alike. */
  const facebook = async (t: ProviderUnderTest) => (await activeChannels(t)).filter((c) => c.platform === 'facebook').slice(0, 1);
  const inAnHour = () => new Date(Date.now() + 3600_000);

  describe('the social provider', () => {
    test('lists the account\'s channels: each with an id, a platform, a name and whether it is active', async () => {
      const t = await make();
      const channels = await t.provider.listChannels(t.credentials);
      expect(channels.length).toBeGreaterThan(0);
      for (const channel of channels) {
        expect(channel).toEqual({ id: expect.any(String), platform: expect.any(String), name: expect.any(String), username: channel.username === null ? null : expect.any(String), active: expect.any(Boolean) });
      }
      expect(new Set(channels.map((c) => c.id)).size).toBe(channels.length);
    });

    test('a scheduled post is accepted as scheduled with one pending result per channel, and reads back the same', async () => {
      const t = await make();
      const channels = await facebook(t);
      const created = await t.provider.createPost(t.credentials, inputFor(channels, { scheduleAt: inAnHour() }));
      expect(created).toMatchObject({ providerPostId: expect.any(String), status: 'scheduled' });
      expect(created.results.map((r) => ({ channelId: r.channelId, platform: r.platform, status: r.status, url: r.url }))).toEqual(
        channels.map((c) => ({ channelId: c.id, platform: c.platform, status: 'pending', url: null })),
      );
      const read = await t.provider.getPost(t.credentials, created.providerPostId);
      expect({ id: read.providerPostId, status: read.status }).toEqual({ id: created.providerPostId, status: 'scheduled' });
    });

    // provider_a (Ayrshare) sends a post for now before it answers: it may come back published already.
    test('a draft is accepted as a draft; a post for now is accepted as publishing, or published already', async () => {
      const t = await make();
      const channels = await facebook(t);
      expect((await t.provider.createPost(t.credentials, inputFor(channels, { draft: true, scheduleAt: inAnHour() }))).status).toBe('draft');
      expect(['publishing', 'published']).toContain((await t.provider.createPost(t.credentials, inputFor(channels))).status);
    });

    test('once the provider sends a post out, it reads back published with a link per channel', async () => {
      const t = await make();
      const created = await t.provider.createPost(t.credentials, inputFor(await facebook(t)));
      await t.publish(created);
      const read = await t.provider.getPost(t.credentials, created.providerPostId);
      expect(read.status).toBe('published');
      expect(read.results.map((r) => ({ status: r.status, url: typeof r.url }))).toEqual([{ status: 'published', url: 'string' }]);
    });

    test('draft and scheduled posts may be deleted; a delete refused by rule says why', async () => {
      const t = await make();
      expect(t.provider.deleteRule({ status: 'draft', results: [] })).toEqual({ allowed: true });
      expect(t.provider.deleteRule({ status: 'scheduled', results: [] })).toEqual({ allowed: true });
      const published = t.provider.deleteRule({ status: 'published', results: [{ channelId: 'c', platform: 'tiktok', status: 'published', url: 'https://x.test/1', error: null }] });
      if (!published.allowed) expect(published.reason).toEqual(expect.stringMatching(/\S/));
    });

    test('a deleted post is gone: it reads back deleted or not found, and deleting it again is refused', async () => {
      const t = await make();
      const created = await t.provider.createPost(t.credentials, inputFor(await facebook(t), { scheduleAt: inAnHour() }));
      await t.provider.deletePost(t.credentials, created.providerPostId);
      const read = await t.provider.getPost(t.credentials, created.providerPostId).then(
        (post) => post.status,
        async (e: unknown) => (await refusal(Promise.reject(e))).kind,
      );
      expect(['deleted', 'not_found']).toContain(read);
      expect(['not_found', 'conflict']).toContain((await refusal(t.provider.deletePost(t.credentials, created.providerPostId))).kind);
    });

    test('a post the provider never had is not_found, to read and to delete', async () => {
      const t = await make();
      await t.provider.listChannels(t.credentials);
      expect(await refusal(t.provider.getPost(t.credentials, 'no-such-post'))).toMatchObject({ kind: 'not_found', provider: t.provider.name });
      expect(await refusal(t.provider.deletePost(t.credentials, 'no-such-post'))).toMatchObject({ kind: 'not_found', provider: t.provider.name });
    });

    test('another account\'s post is not found', async () => {
      const [t, other] = [await make(), await make()];
      const created = await t.provider.createPost(t.credentials, inputFor(await facebook(t), { scheduleAt: inAnHour() }));
      await other.provider.listChannels(other.credentials);
      expect((await refusal(other.provider.getPost(other.credentials, created.providerPostId))).kind).toBe('not_found');
    });

    test('analytics answer totals and days within the window, oldest first', async () => {
      const t = await make();
      const now = new Date();
      const figures = await t.provider.analytics(t.credentials, { days: 7, now });
      const numbers = { views: expect.any(Number), likes: expect.any(Number), comments: expect.any(Number), shares: expect.any(Number), posts: expect.any(Number) };
      expect(figures.totals).toEqual(numbers);
      const dates = figures.daily.map((d) => d.date);
      expect(dates).toEqual([...dates].sort());
      const earliest = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
      for (const day of figures.daily) {
        expect(day).toEqual({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), ...numbers });
        expect(day.date >= earliest && day.date <= now.toISOString().slice(0, 10)).toBe(true);
      }
    });

    test('a key the provider does not take is refused as auth, on every call', async () => {
      const t = await make();
      const { refusedCredentials: bad, provider } = t;
      for (const call of [provider.listChannels(bad), provider.getPost(bad, 'p1'), provider.deletePost(bad, 'p1'), provider.analytics(bad, { days: 7, now: new Date() })]) {
        expect(await refusal(call)).toMatchObject({ kind: 'auth', provider: provider.name });
      }
      expect(await refusal(provider.createPost(bad, inputFor(await facebook(t))))).toMatchObject({ kind: 'auth' });
    });

    test('rate limited past our patience: rate_limited, with the seconds to wait; down: unavailable', async () => {
      const t = await make();
      t.refuseNext('rate_limited', 120);
      expect(await refusal(t.provider.listChannels(t.credentials))).toEqual({ kind: 'rate_limited', provider: t.provider.name, retryAfterS: 120 });
      t.refuseNext('unavailable', 1);
      expect(await refusal(t.provider.listChannels(t.credentials))).toMatchObject({ kind: 'unavailable', provider: t.provider.name });
    });
  });
}
