/**
 * Contract: Post for Me's own SDK (`post-for-me`, generated from its OpenAPI spec) against our
 * provider_b sandbox, only the base URL swapped. Every call provider_b's adapter makes, and the
 * errors the real service answers, must come through the SDK as they would from api.postforme.dev.
 */
import PostForMe from 'post-for-me';
import { startProviderBSandbox, type ProviderBSandbox } from '#local/sandboxes/index';

const KEY = 'sandbox_b_contract';
const VIDEO = 'https://cdn.example.com/videos/reaction.mp4';

let sandbox: ProviderBSandbox;
let sdk: PostForMe;

beforeAll(async () => {
  sandbox = await startProviderBSandbox({ publishDelayMs: 60_000 });
  // Retries off: an error must reach the test as the service sent it.
  sdk = new PostForMe({ apiKey: KEY, baseURL: sandbox.url, maxRetries: 0 });
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.control.reset());

const accountId = (platform: string) => sandbox.control.accounts(KEY).find((a) => a.platform === platform)!.id;

/** The SDK's error for a call that must fail: its HTTP status and the service's body. */
async function refusal(call: Promise<unknown>): Promise<{ status: number | undefined; error: any }> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PostForMe.APIError)) throw new Error(`expected a Post for Me APIError, got ${String(error)}`);
  return { status: error.status, error: error.error };
}

describe('the calls provider_b makes', () => {
  test('social accounts: listed with limit/offset, ids and statuses as the adapter maps them', async () => {
    const page = await sdk.socialAccounts.list({ limit: 2, offset: 0 });
    expect(page.data).toHaveLength(2);
    expect(page.meta).toEqual(expect.objectContaining({ limit: 2, offset: 0, total: 5, next: expect.any(String) }));
    const all = await sdk.socialAccounts.list({ limit: 100, offset: 0 });
    expect(all.data.map((a) => [a.platform, a.status])).toEqual([
      ['tiktok', 'connected'],
      ['instagram', 'connected'],
      ['youtube', 'connected'],
      ['facebook', 'connected'],
      ['x', 'disconnected'],
    ]);
    expect(all.data.every((a) => a.id.startsWith('spc_'))).toBe(true);
    expect((await sdk.socialAccounts.retrieve(accountId('youtube'))).platform).toBe('youtube');
  });

  test('a post now: created, processing, then processed with one result per account', async () => {
    const post = await sdk.socialPosts.create({
      caption: 'Watch this',
      social_accounts: [accountId('tiktok'), accountId('facebook')],
      media: [{ url: VIDEO, thumbnail_url: 'https://cdn.example.com/poster.jpg' }],
      scheduled_at: null,
      isDraft: false,
      external_id: '42',
    });
    expect(post).toEqual(expect.objectContaining({ id: expect.stringMatching(/^sp_/), status: 'processing', caption: 'Watch this', external_id: '42' }));
    expect((await sdk.socialPosts.retrieve(post.id)).status).toBe('processing');
    expect((await sdk.socialPosts.list({ external_id: ['42'] })).data.map((p) => p.id)).toEqual([post.id]);

    sandbox.control.advance(60_000);
    expect((await sdk.socialPosts.retrieve(post.id)).status).toBe('processed');
    const results = await sdk.socialPostResults.list({ post_id: [post.id] });
    expect(results.data.map((r) => [r.social_account_id, r.success])).toEqual(
      expect.arrayContaining([
        [accountId('tiktok'), true],
        [accountId('facebook'), true],
      ]),
    );
    expect(results.data[0]!.platform_data).toEqual({ id: expect.any(String), url: expect.stringMatching(/^https:\/\//) });
    expect((await sdk.socialPostResults.retrieve(results.data[0]!.id)).post_id).toBe(post.id);
  });

  test('drafts and schedules are deleted with {success: true}; the list filters by status', async () => {
    const draft = await sdk.socialPosts.create({ caption: 'Draft', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }], isDraft: true });
    const later = new Date(sandbox.control.now().getTime() + 3_600_000).toISOString();
    const scheduled = await sdk.socialPosts.create({ caption: 'Later', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }], scheduled_at: later });
    expect([draft.status, scheduled.status]).toEqual(['draft', 'scheduled']);
    expect((await sdk.socialPosts.list({ status: ['draft'] })).data.map((p) => p.id)).toContain(draft.id);
    expect((await sdk.socialPosts.list({ status: ['draft'] })).data.map((p) => p.id)).not.toContain(scheduled.id);
    for (const id of [draft.id, scheduled.id]) expect(await sdk.socialPosts.delete(id)).toEqual({ success: true });
  });

  test('account feeds with metrics, paged by cursor', async () => {
    const first = await sdk.socialPosts.create({ caption: 'Feed 1', social_accounts: [accountId('instagram')], media: [{ url: VIDEO }] });
    sandbox.control.advance(60_000);
    const second = await sdk.socialPosts.create({ caption: 'Feed 2', social_accounts: [accountId('instagram')], media: [{ url: VIDEO }] });
    sandbox.control.advance(60_000 + 3_600_000);
    const feed = await sdk.socialAccountFeeds.list(accountId('instagram'), { expand: ['metrics'], limit: 1 });
    expect(feed.data[0]).toEqual(
      expect.objectContaining({ social_post_id: second.id, platform_url: expect.any(String), posted_at: expect.any(String), metrics: expect.objectContaining({ views: expect.any(Number) }) }),
    );
    expect(feed.meta).toEqual(expect.objectContaining({ limit: 1, has_more: true, cursor: expect.any(String) }));
    const next = await sdk.socialAccountFeeds.list(accountId('instagram'), { expand: ['metrics'], limit: 1, cursor: feed.meta.cursor! });
    expect(next.data.map((item) => item.social_post_id)).toEqual([first.id]);
  });
});

describe('the errors the service answers', () => {
  test('a foreign key is 401', async () => {
    const stranger = new PostForMe({ apiKey: 'pfm_live_not_ours', baseURL: sandbox.url, maxRetries: 0 });
    expect((await refusal(stranger.socialAccounts.list())).status).toBe(401);
  });

  test.each([
    ['an empty caption', { caption: '' }],
    ['a past scheduled_at', { scheduled_at: '2020-01-01T00:00:00Z' }],
    ['an account named twice', { twice: true }],
    ['an unknown account', { social_accounts: ['spc_unknown'] }],
  ])('%s is 400 "Invalid Request" with errors[]', async (_what, change) => {
    const { twice, ...fields } = change as Record<string, unknown>;
    const body = {
      caption: 'Watch this',
      social_accounts: twice ? [accountId('tiktok'), accountId('tiktok')] : [accountId('tiktok')],
      media: [{ url: VIDEO }],
      ...fields,
    } as PostForMe.SocialPostCreateParams;
    const { status, error } = await refusal(sdk.socialPosts.create(body));
    expect(status).toBe(400);
    expect(error).toEqual(expect.objectContaining({ statusCode: 400, message: 'Invalid Request', errors: [expect.any(String)] }));
  });

  test('an unknown post is 404 "Post not found"; a processed post cannot be deleted (400)', async () => {
    expect(await refusal(sdk.socialPosts.retrieve('sp_nope'))).toEqual({ status: 404, error: expect.objectContaining({ message: 'Post not found' }) });
    const post = await sdk.socialPosts.create({ caption: 'Now', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }] });
    const refused = await refusal(sdk.socialPosts.delete(post.id));
    expect(refused).toEqual({ status: 400, error: expect.objectContaining({ message: 'Can only delete draft or scheduled posts' }) });
  });

  test('a status outside the enum is 400', async () => {
    const { status } = await refusal(sdk.socialPosts.list({ status: ['published' as 'draft'] }));
    expect(status).toBe(400);
  });

  test('a feed that fails is a bare 500; an older plan gets 401 "requires new_pricing plan"', async () => {
    sandbox.control.failFeed(KEY, 'tiktok');
    expect((await refusal(sdk.socialAccountFeeds.list(accountId('tiktok'), { expand: ['metrics'] }))).status).toBe(500);
    sandbox.control.failFeed(KEY, 'tiktok', false);
    sandbox.control.setLegacyPlan(KEY, true);
    try {
      const legacy = await refusal(sdk.socialAccountFeeds.list(accountId('tiktok'), { expand: ['metrics'] }));
      expect(legacy).toEqual({ status: 401, error: expect.objectContaining({ message: expect.stringContaining('new_pricing plan') }) });
    } finally {
      sandbox.control.setLegacyPlan(KEY, false);
    }
  });
});
