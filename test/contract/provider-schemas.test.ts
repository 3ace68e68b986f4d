/**
 * Contract: our doubles' answers against the providers' published schemas (test/fixtures/providers,
 * sources and dates in its README), not against our reading of them. Each answer is taken off the
 * wire as the production adapters get it and must conform: a field the provider marks required,
 * its type and nullability, its enum.
 */
import { startProviderBSandbox, type ProviderBSandbox } from '#local/sandboxes/index';
import { shapeProblems } from '#test-support/provider-schemas';

describe('Post for Me (provider_b sandbox) against the Post for Me OpenAPI document', () => {
  const KEY = 'sandbox_b_schemas';
  const VIDEO = 'https://cdn.example.com/videos/reaction.mp4';
  let sandbox: ProviderBSandbox;

  beforeAll(async () => {
    sandbox = await startProviderBSandbox({ publishDelayMs: 60_000 });
  });
  afterAll(() => sandbox.stop());

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  const accountId = (platform: string) => sandbox.control.accounts(KEY).find((a) => a.platform === platform)!.id;

  test('social accounts: the list and one account', async () => {
    const list = await call('GET', '/v1/social-accounts?limit=2&offset=0');
    expect(shapeProblems('post-for-me', 'SocialAccountList', list.json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialAccount', (await call('GET', `/v1/social-accounts/${accountId('tiktok')}`)).json)).toEqual([]);
  });

  test('social posts: created now, draft and scheduled; got, listed, deleted', async () => {
    const now = await call('POST', '/v1/social-posts', { caption: 'Now', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }], external_id: 'schema-1' });
    const draft = await call('POST', '/v1/social-posts', { caption: 'Draft', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }], isDraft: true });
    const later = new Date(sandbox.control.now().getTime() + 3_600_000).toISOString();
    const scheduled = await call('POST', '/v1/social-posts', { caption: 'Later', social_accounts: [accountId('youtube')], media: [{ url: VIDEO }], scheduled_at: later });
    for (const created of [now, draft, scheduled]) {
      expect(created.status).toBe(201); // NestJS's default for a POST, as the server sends it (its document says 200)
      expect(shapeProblems('post-for-me', 'SocialPost', created.json)).toEqual([]);
    }
    expect(shapeProblems('post-for-me', 'SocialPost', (await call('GET', `/v1/social-posts/${now.json.id}`)).json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialPostList', (await call('GET', '/v1/social-posts?external_id=schema-1')).json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialPostDeleteResponse', (await call('DELETE', `/v1/social-posts/${draft.json.id}`)).json)).toEqual([]);
  });

  test('post results, successful and failed, and the account feed with metrics', async () => {
    const post = await call('POST', '/v1/social-posts', { caption: 'Results', social_accounts: [accountId('instagram'), accountId('facebook')], media: [{ url: VIDEO }] });
    sandbox.control.advance(60_000 + 3_600_000);
    const results = await call('GET', `/v1/social-post-results?post_id=${post.json.id}`);
    expect(results.json.data).toHaveLength(2);
    expect(shapeProblems('post-for-me', 'SocialPostResultList', results.json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialPostResult', (await call('GET', `/v1/social-post-results/${results.json.data[0].id}`)).json)).toEqual([]);

    const feed = await call('GET', `/v1/social-account-feeds/${accountId('instagram')}?expand=metrics&limit=1`);
    expect(feed.json.data).toHaveLength(1);
    expect(shapeProblems('post-for-me', 'PlatformPostList', feed.json)).toEqual([]);
    const last = await call('GET', `/v1/social-account-feeds/${accountId('instagram')}?expand=metrics&limit=1&cursor=${feed.json.meta.cursor}`);
    expect(shapeProblems('post-for-me', 'PlatformPostList', last.json)).toEqual([]);
  });
});
