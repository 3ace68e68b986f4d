/**
 * Contract: Ayrshare's own SDK (`social-media-api`) against our provider_a sandbox. The SDK
 * hard-codes https://api.ayrshare.com, so only the host is swapped: an HTTPS agent that connects to
 * the sandbox on loopback (plain TCP, no TLS); paths, headers and bodies stay the SDK's. Every call
 * provider_a's adapter makes, and the errors Ayrshare answers, must come through as from Ayrshare.
 * The SDK resolves error answers to their body instead of throwing, so those are compared as bodies.
 */
import https from 'node:https';
import net from 'node:net';
import SocialMediaAPI from 'social-media-api';
import { startProviderASandbox, type ProviderASandbox } from '#local/sandboxes/index';

const KEY = 'sandbox_a_contract';
const VIDEO = 'https://cdn.example.com/videos/reaction.mp4';

/** api.ayrshare.com:443, reached on the sandbox's loopback port: the host swapped, nothing else. */
class LoopbackAgent extends https.Agent {
  constructor(private readonly port: number) {
    super({ keepAlive: false });
  }

  override createConnection(): net.Socket {
    return net.connect(this.port, '127.0.0.1');
  }
}

let sandbox: ProviderASandbox;
const savedAgent = https.globalAgent;

beforeAll(async () => {
  sandbox = await startProviderASandbox({ publishDelayMs: 60_000 });
  https.globalAgent = new LoopbackAgent(Number(new URL(sandbox.url).port));
});
afterAll(async () => {
  https.globalAgent = savedAgent;
  await sandbox.stop();
});
afterEach(() => sandbox.control.reset());

const client = (key = KEY) => new SocialMediaAPI(key);

describe('the calls provider_a makes', () => {
  test('GET /user: the linked networks and their display names', async () => {
    const user = await client().user();
    expect(user.activeSocialAccounts).toEqual(['tiktok', 'instagram', 'youtube', 'facebook']);
    expect(user.displayNames).toEqual(expect.arrayContaining([expect.objectContaining({ platform: 'tiktok', username: 'contract_tiktok' })]));
    // It was the sandbox that answered, at the SDK's own path.
    expect(sandbox.control.count('GET /api/user')).toBe(1);
  });

  test('a post now: per-network outcome at once, the TikTok copy id "pending" until processed', async () => {
    const sent = await client().post({
      post: 'Watch this',
      platforms: ['tiktok', 'youtube'],
      mediaUrls: [VIDEO],
      isVideo: true,
      idempotencyKey: 'our-1',
      youTubeOptions: { title: 'Watch this' },
    });
    expect(sent).toEqual(expect.objectContaining({ status: 'success', id: expect.any(String), errors: [] }));
    expect(sent.postIds).toEqual([
      { platform: 'tiktok', status: 'success', id: 'pending' },
      expect.objectContaining({ platform: 'youtube', status: 'success', postUrl: expect.stringMatching(/^https:\/\//) }),
    ]);
    // The same idempotencyKey answers the same post.
    expect((await client().post({ post: 'Watch this', platforms: ['tiktok', 'youtube'], mediaUrls: [VIDEO], idempotencyKey: 'our-1', youTubeOptions: { title: 'x' } })).id).toBe(sent.id);

    sandbox.control.advance(60_000);
    const got = await client().getPost({ id: sent.id });
    expect(got.postIds[0]).toEqual(expect.objectContaining({ platform: 'tiktok', status: 'success', id: expect.stringMatching(/^\d+$/), postUrl: expect.stringContaining('tiktok.com') }));
  });

  test('scheduled and held posts; deleting a pending one cancels it', async () => {
    const at = new Date(sandbox.control.now().getTime() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const scheduled = await client().post({ post: 'Later', platforms: ['facebook'], mediaUrls: [VIDEO], scheduleDate: at });
    expect(scheduled).toEqual(expect.objectContaining({ status: 'scheduled', scheduleDate: at }));
    expect((await client().getPost({ id: scheduled.id })).status).toBe('pending');
    const held = await client().post({ post: 'Held', platforms: ['facebook'], mediaUrls: [VIDEO], requiresApproval: true });
    expect(held.status).toBe('awaiting approval');
    expect(await client().delete({ id: scheduled.id })).toEqual(expect.objectContaining({ status: 'success', id: scheduled.id }));
    expect((await client().getPost({ id: scheduled.id })).status).toBe('deleted');
  });

  test('history by lastDays and limit, then analytics per post', async () => {
    const sent = await client().post({ post: 'Counted', platforms: ['facebook', 'instagram'], mediaUrls: [VIDEO] });
    sandbox.control.advance(3_600_000);
    const history = await client().history({ lastDays: 1, limit: 1000 });
    expect(history.history.map((p: { id: string }) => p.id)).toContain(sent.id);
    const newest = await client().history({ lastRecords: 1 });
    expect(newest.history).toHaveLength(1);
    const analytics = await client().analyticsPost({ id: sent.id });
    expect(analytics).toEqual(expect.objectContaining({ status: 'success', facebook: expect.objectContaining({ analytics: expect.any(Object) }), instagram: expect.objectContaining({ analytics: expect.any(Object) }) }));
  });

  test('X with the owner\'s X app (setTwitterByo): published, in the network\'s history, removable; without it refused per network', async () => {
    const key = 'sandbox_a_contract_x';
    sandbox.control.linkPlatforms(key, ['twitter']);
    const bare = await client(key).post({ post: 'Hi', platforms: ['twitter'] });
    expect(bare).toEqual(expect.objectContaining({ status: 'error', errors: [expect.objectContaining({ platform: 'twitter', code: 170 })] }));

    const x = client(key).setTwitterByo('x-consumer-key', 'x-consumer-secret');
    const sent = await x.post({ post: 'Hi', platforms: ['twitter'] });
    expect(sent.postIds).toEqual([expect.objectContaining({ platform: 'twitter', status: 'success', postUrl: expect.stringContaining('x.com') })]);
    const onX = await x.history({ platform: 'twitter' });
    expect(onX).toEqual(expect.objectContaining({ status: 'success', platform: 'twitter', posts: [expect.objectContaining({ ayrshareId: sent.id })] }));
    expect((await x.delete({ id: sent.id })).status).toBe('success');
  });

  test('a User Profile (setProfileKey): its own networks and posts, unseen by the primary profile', async () => {
    sandbox.control.linkPlatforms(KEY, ['instagram'], 'client-7');
    const profile = client().setProfileKey('client-7');
    expect((await profile.user()).activeSocialAccounts).toEqual(['instagram']);
    const sent = await profile.post({ post: 'For client 7', platforms: ['instagram'], mediaUrls: [VIDEO] });
    expect(sent).toEqual(expect.objectContaining({ status: 'success', id: expect.any(String) }));
    expect((await profile.getPost({ id: sent.id })).status).toBe('success');
    expect(await client().getPost({ id: sent.id })).toEqual(expect.objectContaining({ status: 'error', code: 136 }));
    // The SDK sent the header the sandbox scopes by.
    expect(sandbox.control.requests().filter((r) => r.headers['profile-key'] === 'client-7')).toHaveLength(3);
  });

  test('a failed post is retried with PUT /post/retry', async () => {
    sandbox.control.failPlatform('facebook');
    const failed = await client().post({ post: 'Again', platforms: ['facebook'], mediaUrls: [VIDEO] });
    expect(failed.status).toBe('error');
    sandbox.control.restorePlatform();
    expect(await client().retryPost({ id: failed.id })).toEqual(expect.objectContaining({ status: 'success', id: failed.id }));
  });
});

describe('the errors Ayrshare answers', () => {
  test('a foreign key', async () => {
    expect(await client('live_not_ours').user()).toEqual(expect.objectContaining({ status: 'error', code: 102 }));
  });

  test('bad posts: not linked, no media for TikTok, a past schedule, a YouTube post without title', async () => {
    const past = await client().post({ post: 'x', platforms: ['facebook'], scheduleDate: '2020-01-01T00:00:00Z' });
    expect(past).toEqual(expect.objectContaining({ status: 'error', code: 135 }));
    expect(await client().post({ post: 'x', platforms: ['twitter'] })).toEqual(expect.objectContaining({ status: 'error', code: 156 }));
    expect(await client().post({ post: 'x', platforms: ['tiktok'] })).toEqual(expect.objectContaining({ status: 'error', code: 101 }));
    expect(await client().post({ post: 'x', platforms: ['youtube'], mediaUrls: [VIDEO] })).toEqual(expect.objectContaining({ status: 'error', code: 101 }));
  });

  test('unknown posts, a second delete, published TikTok copies that cannot be removed', async () => {
    expect(await client().getPost({ id: 'nope' })).toEqual(expect.objectContaining({ status: 'error', code: 136 }));
    const sent = await client().post({ post: 'x', platforms: ['tiktok'], mediaUrls: [VIDEO] });
    sandbox.control.advance(60_000);
    const refused = await client().delete({ id: sent.id });
    expect(refused).toEqual(expect.objectContaining({ status: 'error', errors: [expect.objectContaining({ platform: 'tiktok', code: 301 })] }));
    const held = await client().post({ post: 'x', platforms: ['facebook'], mediaUrls: [VIDEO], requiresApproval: true });
    await client().delete({ id: held.id });
    expect(await client().delete({ id: held.id })).toEqual(expect.objectContaining({ status: 'error', code: 137 }));
    expect(await client().retryPost({ id: held.id })).toEqual(expect.objectContaining({ status: 'error', code: 101 }));
  });
});
