/**
 * provider_b: the Post for Me-shaped scheduling API (README "Social publishing"), every path
 * under /v1.
 *
 * Channels are Post for Me's social accounts (`spc_…` ids, used as they are), listed with offset
 * pagination (`limit`/`offset`, following `meta.next`/`meta.total`; the `next` URL itself is never
 * fetched, so our key only ever goes to the configured base URL). `connected` is active, anything
 * else inactive; `tiktok_business` is our `tiktok`; networks outside our list are left out. The
 * account's access/refresh tokens are dropped while parsing (the schema strips them) and never
 * reach a return value, an error or a log.
 *
 * Statuses: draft → draft; scheduled → scheduled; processing → publishing; processed → from the
 * per-account results (`GET /v1/social-post-results?post_id=`): every account succeeded →
 * published, none → failed, some → partially_published; while an account of a processed post has
 * no result yet the post is still publishing. Anything else is outside the contract (bad_response).
 * Per-channel results: success → published (platform_data.url), !success → failed with the error.
 *
 * Create sends `{caption, social_accounts, media: [{url, thumbnail_url}], scheduled_at (null = now),
 * isDraft, external_id}`. Post for Me has no idempotency key, so the POST is not repeated after a
 * 5xx or a lost answer (a 429 still is: nothing was processed). Instead, when the answer is lost
 * (timeout, 5xx, network), the post is looked up by `external_id`; if it exists it is returned,
 * otherwise the original error is.
 *
 * Delete rule (the API's own: "Can only delete draft or scheduled posts"): draft and scheduled only,
 * refused before any call otherwise; an upstream 400 on delete is a `conflict` (only the id is sent,
 * so the refusal is about the post's state).
 *
 * Analytics: the feeds of every connected account (provider-b-feeds.ts), each account on its own:
 * one account's failing feed skips that account, not the provider.
 */
import * as z from 'zod/mini';
import { ProviderError, isProviderError, type CreatePostInput, type DeleteVerdict, type SocialProvider } from '#ports/social-provider';
import type { Channel, Platform } from '#domain/social';
import type { ChannelResult, PostStatus, ProviderPost } from '#domain/social-post';
import type { ProviderAnalytics } from '#domain/analytics';
import { analyticsWindow, platformNames, providerClient, providerMessage, type ProviderAdapterOptions, type ProviderHttp } from './provider-http';
import { readAccountFeeds } from './provider-b-feeds';

const PROVIDER_B_DEFAULT_BASE_URL = 'https://api.postforme.dev';
const NAME = 'provider_b';
const PAGE_LIMIT = 100;
const MAX_PAGES = 50;
const FEED_PAGE_LIMIT = 50;
const MAX_FEED_PAGES = 20;

/** Post for Me's network names → ours (`tiktok_business` is our tiktok). */
const fromPostForMePlatform = platformNames({ tiktok_business: 'tiktok', twitter: 'x' });

const Id = z.union([z.string(), z.number()]);

/** z.object strips unknown keys: access_token, refresh_token and their expiries never get past here. */
const Account = z.object({
  id: z.string(),
  platform: z.string(),
  username: z.nullish(z.string()),
  user_id: z.nullish(Id),
  status: z.nullish(z.string()),
});

const ListMeta = z.looseObject({
  limit: z.nullish(z.number()),
  offset: z.nullish(z.number()),
  total: z.nullish(z.number()),
  next: z.nullish(z.string()),
});

const AccountRef = z.object({ id: z.string(), platform: z.string() });

const SocialPost = z.looseObject({
  id: z.string(),
  status: z.string(),
  social_accounts: z.nullish(z.array(z.union([z.string(), AccountRef]))),
  external_id: z.nullish(z.string()),
});

const PostResult = z.looseObject({
  social_account_id: z.string(),
  success: z.boolean(),
  error: z.optional(z.unknown()),
  platform_data: z.nullish(z.looseObject({ id: z.nullish(Id), url: z.nullish(z.string()) })),
});

const DeleteAnswer = z.looseObject({ success: z.optional(z.boolean()) });

type PfmAccount = z.infer<typeof Account>;
type PfmPost = z.infer<typeof SocialPost>;
type PfmResult = z.infer<typeof PostResult>;

export interface ProviderBOptions extends ProviderAdapterOptions {
  /** Accounts whose feeds are read at once (default 3). */
  analyticsConcurrency?: number;
}

function toChannel(account: PfmAccount): Channel | undefined {
  const platform = fromPostForMePlatform(account.platform);
  if (!platform) return undefined;
  const username = account.username?.trim() || null;
  return { id: account.id, platform, name: username ?? account.id, username, active: account.status === 'connected' };
}

/** A result's error as one line: Post for Me sends a string, an object or nothing. */
function resultError(http: ProviderHttp, error: unknown): string {
  if (typeof error === 'string' && error.trim()) return http.quote(error);
  const said = providerMessage(error) ?? providerMessage({ error });
  if (said) return http.quote(said);
  if (error !== null && error !== undefined && typeof error === 'object') return http.quote(JSON.stringify(error));
  return 'the network refused the post';
}

function mapProviderBStatus(status: string, results: readonly ChannelResult[]): PostStatus | undefined {
  switch (status.trim().toLowerCase()) {
    case 'draft':
      return 'draft';
    case 'scheduled':
      return 'scheduled';
    case 'processing':
      return 'publishing';
    case 'processed': {
      if (results.length === 0 || results.some((r) => r.status === 'pending')) return 'publishing';
      const published = results.filter((r) => r.status === 'published').length;
      if (published === results.length) return 'published';
      return published === 0 ? 'failed' : 'partially_published';
    }
    default:
      return undefined;
  }
}

export function providerBDeleteRule(post: Pick<ProviderPost, 'status' | 'results'>): DeleteVerdict {
  if (post.status === 'draft' || post.status === 'scheduled') return { allowed: true };
  return {
    allowed: false,
    reason: `provider_b can only delete draft or scheduled posts ("Can only delete draft or scheduled posts"); this post is ${post.status.replace('_', ' ')}`,
  };
}

/** Every item of an offset-paginated list. */
async function listAll<T>(
  http: ProviderHttp,
  path: string,
  query: Record<string, string>,
  item: z.core.$ZodType<T>,
  describe: string,
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const page = z.looseObject({ data: z.array(item), meta: z.nullish(ListMeta) });
  const all: T[] = [];
  let offset = 0;
  for (let n = 0; n < MAX_PAGES; n++) {
    const answer = await http.request({ method: 'GET', path, query: { ...query, limit: PAGE_LIMIT, offset }, describe, signal }, page);
    all.push(...answer.data);
    offset += answer.data.length;
    const meta = answer.meta;
    if (answer.data.length === 0 || !meta) break;
    const more = meta.next !== undefined ? meta.next !== null && meta.next !== '' : typeof meta.total === 'number' && offset < meta.total;
    if (!more) break;
  }
  return all;
}

const listAccounts = (http: ProviderHttp, signal?: AbortSignal) => listAll(http, '/v1/social-accounts', {}, Account, 'list channels', signal);

async function toProviderPost(http: ProviderHttp, post: PfmPost, known: readonly Channel[], signal?: AbortSignal): Promise<ProviderPost> {
  const upstream = post.status.trim().toLowerCase();
  const results: PfmResult[] =
    upstream === 'processing' || upstream === 'processed'
      ? await listAll(http, '/v1/social-post-results', { post_id: post.id }, PostResult, 'post results', signal)
      : [];
  // The post names its accounts; bare ids are resolved through the channels we know, else the account list.
  let channels = known;
  const refs = post.social_accounts ?? [];
  if (refs.some((ref) => typeof ref === 'string' && !channels.some((c) => c.id === ref))) {
    channels = [...channels, ...(await listAccounts(http, signal)).map(toChannel).filter((c): c is Channel => c !== undefined)];
  }
  const accounts: { id: string; platform: Platform }[] = [];
  for (const ref of refs) {
    const id = typeof ref === 'string' ? ref : ref.id;
    const platform = typeof ref === 'string' ? channels.find((c) => c.id === ref)?.platform : fromPostForMePlatform(ref.platform);
    if (platform && !accounts.some((a) => a.id === id)) accounts.push({ id, platform });
  }
  const perChannel: ChannelResult[] = accounts.map(({ id, platform }) => {
    const mine = results.filter((r) => r.social_account_id === id);
    const success = mine.find((r) => r.success);
    if (success) return { channelId: id, platform, status: 'published', url: success.platform_data?.url ?? null, error: null };
    const failure = mine[0];
    if (failure) return { channelId: id, platform, status: 'failed', url: null, error: resultError(http, failure.error) };
    return { channelId: id, platform, status: 'pending', url: null, error: null };
  });
  const status = mapProviderBStatus(post.status, perChannel);
  if (!status) throw new ProviderError(NAME, 'bad_response', `${NAME} post: unknown post status "${http.quote(post.status).slice(0, 40)}"`);
  return { providerPostId: post.id, status, results: perChannel };
}

/** After a lost create answer: the post, if Post for Me made it, found by our external_id. */
async function findCreated(http: ProviderHttp, input: CreatePostInput, signal?: AbortSignal): Promise<PfmPost | undefined> {
  const page = z.looseObject({ data: z.array(SocialPost) });
  const answer = await http.request(
    { method: 'GET', path: '/v1/social-posts', query: { external_id: input.externalId, limit: 10 }, describe: 'find created post', signal },
    page,
  );
  return answer.data.find((post) => post.external_id === input.externalId);
}

export function createProviderB(options: ProviderBOptions = {}): SocialProvider {
  const concurrency = Math.max(1, options.analyticsConcurrency ?? 3);

  const client = providerClient({
    provider: NAME,
    baseUrl: options.baseUrl,
    defaultBaseUrl: PROVIDER_B_DEFAULT_BASE_URL,
    http: options.http,
  });

  return {
    name: NAME,

    async listChannels(credentials, callOptions) {
      const accounts = await listAccounts(client(credentials), callOptions?.signal);
      return accounts.map(toChannel).filter((c): c is Channel => c !== undefined);
    },

    async createPost(credentials, input, callOptions) {
      const http = client(credentials);
      const signal = callOptions?.signal;
      const media: Record<string, string> = { url: input.media.url };
      if (input.media.thumbnailUrl) media.thumbnail_url = input.media.thumbnailUrl;
      const body = {
        caption: input.caption,
        social_accounts: input.channels.map((c) => c.id),
        media: [media],
        scheduled_at: input.scheduleAt ? input.scheduleAt.toISOString() : null,
        isDraft: input.draft,
        external_id: input.externalId,
      };
      let post: PfmPost;
      try {
        post = await http.request({ method: 'POST', path: '/v1/social-posts', body, describe: 'create post', repeatable: false, signal }, SocialPost);
      } catch (error) {
        if (!isProviderError(error) || (error.kind !== 'unavailable' && error.kind !== 'timeout') || signal?.aborted) throw error;
        const found = await findCreated(http, input, signal).catch(() => undefined);
        if (!found) throw error;
        post = found;
      }
      return toProviderPost(http, post, input.channels, signal);
    },

    async getPost(credentials, providerPostId, callOptions) {
      const http = client(credentials);
      const post = await http.request(
        { method: 'GET', path: `/v1/social-posts/${encodeURIComponent(providerPostId)}`, describe: 'get post', signal: callOptions?.signal },
        SocialPost,
      );
      return toProviderPost(http, post, [], callOptions?.signal);
    },

    deleteRule: providerBDeleteRule,

    async deletePost(credentials, providerPostId, callOptions) {
      const http = client(credentials);
      const request = {
        method: 'DELETE' as const,
        path: `/v1/social-posts/${encodeURIComponent(providerPostId)}`,
        describe: 'delete post',
        conflict: () => true,
        signal: callOptions?.signal,
      };
      const answer = await http.send(request);
      if (answer.status < 200 || answer.status > 299) throw http.errorFor(answer, request);
      if (answer.status === 204 || !answer.text.trim()) return;
      const result = http.parse(answer, DeleteAnswer, 'delete post');
      if (result.success === false) {
        throw new ProviderError(NAME, 'conflict', `${NAME} delete post: the provider did not delete the post`, { status: answer.status });
      }
    },

    async analytics(credentials, window, callOptions): Promise<ProviderAnalytics> {
      const http = client(credentials);
      const signal = callOptions?.signal;
      const accounts = (await listAccounts(http, signal)).filter((a) => a.status === 'connected' && fromPostForMePlatform(a.platform));
      return readAccountFeeds(http, {
        accountIds: accounts.map((a) => a.id),
        window: analyticsWindow(window),
        concurrency,
        pageLimit: FEED_PAGE_LIMIT,
        maxPages: MAX_FEED_PAGES,
        signal,
      });
    },
  };
}
