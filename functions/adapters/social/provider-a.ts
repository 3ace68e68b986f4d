/**
 * provider_a: the Ayrshare-shaped scheduling API (README "Social publishing").
 *
 * Channels. An Ayrshare User Profile links at most one account per network, so within one
 * connection the network names the channel: our channel id is `a:<platform>` in our spelling
 * (`a:x`, `a:tiktok`). The `a:` keeps ids visibly provider_a's and apart from provider_b's
 * `spc_…` ids; the Profile-Key is not part of it because it is a credential and channel ids are
 * returned to API users. Ayrshare's `twitter` is our `x`; networks we do not publish to (reddit,
 * telegram, gmb, snapchat) are left out of the list.
 *
 * Statuses (`GET /post/:id`, also the create answer): pending, scheduled, paused → scheduled;
 * `awaiting approval` (our drafts, sent with requiresApproval) → draft; processing → publishing;
 * success → published, or partially_published when a channel failed; error → failed, or
 * partially_published when a channel was published; deleted → deleted; anything else is outside the
 * contract (bad_response). Per-channel results come from `postIds[]` (success → published with its
 * postUrl, deleted, error) and `errors[]` matched by platform. A post sent now is answered at once
 * with its per-network outcome, except that a network which publishes asynchronously (TikTok) gets a
 * copy with `id: "pending"` and no postUrl: that channel stays `pending` and the post `publishing`
 * (not final, so it is refreshed) until every copy has its id and URL, or has failed.
 *
 * X. Ayrshare refuses X operations without the owner's own X app since 2026-03-31: when the
 * connection has one, its key and secret go in `X-Twitter-OAuth1-Api-Key`/`-Secret` on every call
 * (redacted from messages like the API key).
 *
 * Create. A top-level `status: "error"` (Ayrshare sends it with HTTP 200 or 400) with per-network
 * `errors[]` is a partial failure: those channels come back `failed` and the post keeps the others.
 * Only when nothing was accepted (no post id, or every channel failed) is it thrown, as `rejected`.
 * The request carries `idempotencyKey` = our post id, which is why it is retried like a GET.
 * YouTube requires a title: the caption's first line (100 characters at most) is sent as
 * `youTubeOptions.title`.
 *
 * Delete rule. Ayrshare cancels a pending post and removes a sent one from the networks, except
 * published Instagram and TikTok posts (those networks have no delete API). Drafts and scheduled
 * posts can be deleted; a published or partially published post can when at least one of its
 * published channels is on another network (its Instagram/TikTok copies then stay up); when every
 * published channel is Instagram or TikTok the delete is refused before any call, naming them.
 * Failed, deleted and publishing posts are refused: there is nothing to remove, or not yet.
 *
 * Analytics. `GET /history?lastDays=<days>` (limit 1000: the default of 25 would cut the window
 * short), then `POST /analytics/post {id}` for each post with a published channel, four at a
 * time. A post counts on the UTC day it went out (its scheduleDate when it was scheduled, else its
 * created date) when that day is inside the window (see analyticsWindow). Metrics are summed over
 * the post's networks with the names in METRIC_ALIASES (views|viewCount|videoViews|plays,
 * likes|likeCount|reactions, comments|commentsCount|commentCount, shares|shareCount|retweetCount,
 * ...); a post whose analytics Ayrshare refuses or no longer has (404/400) still counts as a post,
 * with zeros.
 */
import * as z from 'zod/mini';
import { ProviderError, isProviderError, type CreatePostInput, type DeleteVerdict, type SocialProvider } from '#ports/social-provider';
import type { Channel, Platform, ProviderCredentials } from '#domain/social';
import type { ChannelResult, PostStatus, ProviderPost } from '#domain/social-post';
import type { ProviderAnalytics } from '#domain/analytics';
import {
  AnalyticsTally,
  ProviderHttp,
  analyticsWindow,
  mapLimited,
  platformNames,
  providerClient,
  readMetrics,
  type ProviderAdapterOptions,
  type ProviderAnswer,
  type ProviderRequest,
} from './provider-http';

const PROVIDER_A_DEFAULT_BASE_URL = 'https://api.ayrshare.com/api';
const NAME = 'provider_a';

function ayrsharePlatform(platform: Platform): string {
  return platform === 'x' ? 'twitter' : platform;
}

/** Ayrshare's network names → ours (both spellings of X accepted). */
const fromAyrsharePlatform = platformNames({ twitter: 'x' });

/** Our channel id for a network of this connection. */
function providerAChannelId(platform: Platform): string {
  return `a:${platform}`;
}

/**
 * The credential headers beside the key: the User Profile, and the owner's X app, sent on every call
 * (as Ayrshare's own SDK does) since any call may touch an X copy: a post, its delete, its analytics.
 */
function ayrshareHeaders(credentials: ProviderCredentials): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (credentials.profileKey) headers['Profile-Key'] = credentials.profileKey;
  if (credentials.xApp) {
    headers['X-Twitter-OAuth1-Api-Key'] = credentials.xApp.apiKey;
    headers['X-Twitter-OAuth1-Api-Secret'] = credentials.xApp.apiSecret;
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** Ayrshare's placeholder id for a copy its network is still processing (TikTok): not final yet. */
const PROCESSING_ID = 'pending';

/** Networks whose published posts Ayrshare cannot remove. */
const UNDELETABLE_WHEN_PUBLISHED: readonly Platform[] = ['instagram', 'tiktok'];

const Id = z.union([z.string(), z.number()]);

const DisplayName = z.looseObject({
  platform: z.string(),
  id: z.nullish(Id),
  displayName: z.nullish(z.string()),
  username: z.nullish(z.string()),
});

const UserAnswer = z.looseObject({
  activeSocialAccounts: z.nullish(z.array(z.string())),
  displayNames: z.nullish(z.array(DisplayName)),
});

const PostIdEntry = z.looseObject({
  platform: z.string(),
  status: z.nullish(z.string()),
  id: z.nullish(Id),
  postUrl: z.nullish(z.string()),
});

const ErrorEntry = z.looseObject({
  platform: z.nullish(z.string()),
  message: z.nullish(z.string()),
  code: z.nullish(Id),
  action: z.nullish(z.string()),
  status: z.nullish(z.string()),
});

const CreateAnswer = z.looseObject({
  status: z.string(),
  id: z.nullish(z.string()),
  postIds: z.nullish(z.array(PostIdEntry)),
  errors: z.nullish(z.array(ErrorEntry)),
});

/** Firestore-style timestamps (`{_seconds}`) appear in history answers beside ISO strings. */
const When = z.union([z.string(), z.number(), z.looseObject({ _seconds: z.optional(z.number()), seconds: z.optional(z.number()) })]);

const PostAnswer = z.looseObject({
  id: z.string(),
  status: z.string(),
  platforms: z.nullish(z.array(z.string())),
  postIds: z.nullish(z.array(PostIdEntry)),
  errors: z.nullish(z.array(ErrorEntry)),
  type: z.nullish(z.string()),
  created: z.nullish(When),
  scheduleDate: z.nullish(When),
});

const HistoryAnswer = z.union([z.array(PostAnswer), z.looseObject({ history: z.array(PostAnswer) })]);

const AnyObject = z.looseObject({});

type AyrPost = z.infer<typeof PostAnswer>;
type AyrPostId = z.infer<typeof PostIdEntry>;
type AyrError = z.infer<typeof ErrorEntry>;

export interface ProviderAOptions extends ProviderAdapterOptions {
  /** Parallel `POST /analytics/post` calls (default 4). */
  analyticsConcurrency?: number;
}

function whenToDate(value: z.infer<typeof When> | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') {
    const at = Date.parse(value);
    return Number.isFinite(at) ? new Date(at) : undefined;
  }
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value);
  const seconds = value._seconds ?? value.seconds;
  return seconds === undefined ? undefined : new Date(seconds * 1000);
}

/** UTC ISO-8601 to the second, as Ayrshare's scheduleDate wants it. */
function ayrshareDate(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function youTubeTitle(input: CreatePostInput): string {
  const firstLine = input.caption.split(/\r?\n/).map((l) => l.trim()).find(Boolean);
  const title = firstLine || input.media.fileName.replace(/\.[^.]+$/, '').trim() || 'Video';
  return title.slice(0, 100);
}

function errorText(entry: AyrError): string {
  const message = entry.message?.trim() || entry.status || 'refused';
  return entry.code !== null && entry.code !== undefined ? `${message} (code ${entry.code})` : message;
}

interface Outcome {
  postIds: readonly AyrPostId[];
  errors: readonly AyrError[];
}

/** Per-channel results for `platforms`; `fallback` is the state of a channel the answer says nothing about. */
function channelResults(
  http: ProviderHttp,
  platforms: readonly Platform[],
  outcome: Outcome,
  fallback: (platform: Platform) => Pick<ChannelResult, 'status' | 'error'>,
): ChannelResult[] {
  return platforms.map((platform) => {
    const base = { channelId: providerAChannelId(platform), platform };
    const sent = outcome.postIds.find((p) => fromAyrsharePlatform(p.platform) === platform);
    const refused = outcome.errors.filter((e) => e.platform && fromAyrsharePlatform(e.platform) === platform);
    const sentStatus = sent?.status?.toLowerCase();
    if (sent && sentStatus === 'success' && isProcessing(sent)) return { ...base, status: 'pending', url: null, error: null };
    if (sent && sentStatus === 'success') return { ...base, status: 'published', url: sent.postUrl ?? null, error: null };
    if (sent && sentStatus === 'deleted') return { ...base, status: 'deleted', url: sent.postUrl ?? null, error: null };
    if (refused.length || (sent && sentStatus === 'error')) {
      const error = refused.length ? refused.map(errorText).join('; ') : 'the network refused the post';
      return { ...base, status: 'failed', url: null, error: http.quote(error) };
    }
    return { ...base, url: sent?.postUrl ?? null, ...fallback(platform) };
  });
}

/** A copy Ayrshare accepted whose network has not given it an id yet (TikTok publishes asynchronously). */
function isProcessing(copy: AyrPostId): boolean {
  return copy.id === null || copy.id === undefined || String(copy.id).trim().toLowerCase() === PROCESSING_ID;
}

/** The post's networks in our spelling: the ones asked for, then any the answer adds. */
function platformsOf(post: Pick<AyrPost, 'platforms' | 'postIds' | 'errors'>): Platform[] {
  const names = [...(post.platforms ?? []), ...(post.postIds ?? []).map((p) => p.platform), ...(post.errors ?? []).map((e) => e.platform ?? '')];
  const seen = new Set<Platform>();
  for (const name of names) {
    const platform = fromAyrsharePlatform(name);
    if (platform) seen.add(platform);
  }
  return [...seen];
}

function mapProviderAStatus(status: string, results: readonly ChannelResult[]): PostStatus | undefined {
  const anyFailed = results.some((r) => r.status === 'failed');
  const anyPublished = results.some((r) => r.status === 'published');
  // Sent, but a copy is still being processed by its network: not final until every copy is.
  const anyProcessing = results.some((r) => r.status === 'pending');
  switch (status.trim().toLowerCase()) {
    case 'pending':
    case 'scheduled':
    case 'paused':
      return 'scheduled';
    case 'awaiting approval':
      return 'draft';
    case 'processing':
      return 'publishing';
    case 'success':
      if (anyProcessing) return 'publishing';
      return anyFailed ? 'partially_published' : 'published';
    case 'error':
      if (anyProcessing) return 'publishing';
      return anyPublished ? 'partially_published' : 'failed';
    case 'deleted':
      return 'deleted';
    default:
      return undefined;
  }
}

function toProviderPost(http: ProviderHttp, post: AyrPost): ProviderPost {
  const upstream = post.status.trim().toLowerCase();
  const outcome = { postIds: post.postIds ?? [], errors: post.errors ?? [] };
  const results = channelResults(http, platformsOf(post), outcome, () => {
    if (upstream === 'success') return { status: 'published', error: null };
    if (upstream === 'deleted') return { status: 'deleted', error: null };
    if (upstream === 'error') return { status: 'failed', error: 'not posted' };
    return { status: 'pending', error: null };
  });
  const status = mapProviderAStatus(post.status, results);
  if (!status) {
    throw new ProviderError(NAME, 'bad_response', `${NAME} get post: unknown post status "${http.quote(post.status).slice(0, 40)}"`);
  }
  return { providerPostId: post.id, status, results };
}

export function providerADeleteRule(post: Pick<ProviderPost, 'status' | 'results'>): DeleteVerdict {
  switch (post.status) {
    case 'draft':
    case 'scheduled':
      return { allowed: true };
    case 'published':
    case 'partially_published': {
      const published = post.results.filter((r) => r.status === 'published');
      const stuck = published.filter((r) => UNDELETABLE_WHEN_PUBLISHED.includes(r.platform));
      if (published.length > 0 && stuck.length === published.length) {
        const names = [...new Set(stuck.map((r) => (r.platform === 'tiktok' ? 'TikTok' : 'Instagram')))].join(' and ');
        return {
          allowed: false,
          reason: `provider_a cannot remove published ${names} posts (those networks offer no delete); delete the post on ${names} itself`,
        };
      }
      return { allowed: true };
    }
    case 'publishing':
      return { allowed: false, reason: 'the post is being published right now; delete it once it has finished' };
    case 'failed':
      return { allowed: false, reason: 'the post failed on every channel: nothing was published, so there is nothing to remove' };
    case 'deleted':
      return { allowed: false, reason: 'the post is already deleted' };
  }
}

export function createProviderA(options: ProviderAOptions = {}): SocialProvider {
  const concurrency = Math.max(1, options.analyticsConcurrency ?? 4);

  const client = providerClient({
    provider: NAME,
    baseUrl: options.baseUrl,
    defaultBaseUrl: PROVIDER_A_DEFAULT_BASE_URL,
    http: options.http,
    headers: ayrshareHeaders,
  });

  return {
    name: NAME,

    async listChannels(credentials, callOptions) {
      const http = client(credentials);
      const user = await http.request({ method: 'GET', path: '/user', describe: 'list channels', signal: callOptions?.signal }, UserAnswer);
      const active = user.activeSocialAccounts ? new Set(user.activeSocialAccounts.map((p) => fromAyrsharePlatform(p)).filter(Boolean)) : undefined;
      const channels = new Map<Platform, Channel>();
      for (const entry of user.displayNames ?? []) {
        const platform = fromAyrsharePlatform(entry.platform);
        if (!platform || channels.has(platform)) continue;
        channels.set(platform, {
          id: providerAChannelId(platform),
          platform,
          name: entry.displayName?.trim() || entry.username?.trim() || platform,
          username: entry.username?.trim() || null,
          active: active ? active.has(platform) : true,
        });
      }
      // A linked network Ayrshare has no display details for is still a channel.
      for (const platform of active ?? []) {
        if (platform && !channels.has(platform)) {
          channels.set(platform, { id: providerAChannelId(platform), platform, name: platform, username: null, active: true });
        }
      }
      return [...channels.values()];
    },

    async createPost(credentials, input, callOptions) {
      const http = client(credentials);
      const platforms = [...new Set(input.channels.map((c) => c.platform))];
      const body: Record<string, unknown> = {
        post: input.caption,
        platforms: platforms.map(ayrsharePlatform),
        mediaUrls: [input.media.url],
        isVideo: true,
        idempotencyKey: input.externalId,
      };
      if (input.scheduleAt) body.scheduleDate = ayrshareDate(input.scheduleAt);
      if (input.draft) body.requiresApproval = true;
      if (platforms.includes('youtube')) body.youTubeOptions = { title: youTubeTitle(input) };
      const request: ProviderRequest = { method: 'POST', path: '/post', body, describe: 'create post', repeatable: true, signal: callOptions?.signal };
      const answer = await http.send(request);
      const ok = answer.status >= 200 && answer.status <= 299;
      if (!ok && !isPartialFailure(answer)) throw http.errorFor(answer, request);
      const created = http.parse(answer, CreateAnswer, 'create post');
      const upstream = created.status.trim().toLowerCase();
      const intended: PostStatus = input.draft ? 'draft' : input.scheduleAt ? 'scheduled' : 'publishing';
      const generalErrors = (created.errors ?? []).filter((e) => !e.platform || !fromAyrsharePlatform(e.platform));
      const results = channelResults(http, platforms, { postIds: created.postIds ?? [], errors: created.errors ?? [] }, () => {
        if (upstream === 'error' && generalErrors.length) return { status: 'failed', error: http.quote(generalErrors.map(errorText).join('; ')) };
        if (upstream === 'success' && intended === 'publishing') return { status: 'published', error: null };
        return { status: 'pending', error: null };
      });
      if (!created.id || results.every((r) => r.status === 'failed')) {
        const reasons = results.filter((r) => r.error).map((r) => `${r.platform}: ${r.error}`);
        const said = reasons.length ? reasons.join('; ') : http.quote(generalErrors.map(errorText).join('; ') || 'no reason given');
        throw new ProviderError(NAME, 'rejected', `${NAME} create post was refused: ${said}`, { status: answer.status });
      }
      let status: PostStatus;
      if (upstream === 'error' && intended !== 'publishing') {
        // Refused on some networks up front: the post still waits (draft, schedule) for the others.
        status = intended;
      } else if (upstream === 'error') {
        // Partial failure of a post sent now: final once no copy is still being processed.
        status = mapProviderAStatus('error', results) ?? 'publishing';
      } else {
        const mapped = mapProviderAStatus(created.status, results);
        if (!mapped) throw new ProviderError(NAME, 'bad_response', `${NAME} create post: unknown post status "${http.quote(created.status).slice(0, 40)}"`);
        status = mapped;
      }
      return { providerPostId: created.id, status, results };
    },

    async getPost(credentials, providerPostId, callOptions) {
      const http = client(credentials);
      const post = await http.request(
        { method: 'GET', path: `/post/${encodeURIComponent(providerPostId)}`, describe: 'get post', signal: callOptions?.signal },
        PostAnswer,
      );
      return toProviderPost(http, post);
    },

    deleteRule: providerADeleteRule,

    async deletePost(credentials, providerPostId, callOptions) {
      const http = client(credentials);
      // Only the id is sent, so a 400 can only be about the post's state (e.g. already deleted).
      await http.request(
        { method: 'DELETE', path: '/post', body: { id: providerPostId }, describe: 'delete post', conflict: () => true, signal: callOptions?.signal },
        AnyObject,
      );
    },

    async analytics(credentials, window, callOptions): Promise<ProviderAnalytics> {
      const http = client(credentials);
      const signal = callOptions?.signal;
      const { from, to } = analyticsWindow(window);
      const history = await http.request(
        { method: 'GET', path: '/history', query: { lastDays: Math.max(1, Math.floor(window.days)), limit: 1000 }, describe: 'post history', signal },
        HistoryAnswer,
      );
      const posts = (Array.isArray(history) ? history : history.history).flatMap((post) => {
        if (!(post.postIds ?? []).some((p) => p.status?.toLowerCase() === 'success')) return [];
        if (post.status.toLowerCase() === 'deleted') return [];
        const scheduled = post.type?.toLowerCase() === 'scheduled' ? whenToDate(post.scheduleDate) : undefined;
        const at = scheduled ?? whenToDate(post.created);
        return at && at >= from && at <= to ? [{ id: post.id, at }] : [];
      });
      const tally = new AnalyticsTally();
      await mapLimited(posts, concurrency, async (post) => {
        let perNetwork: Record<string, unknown> = {};
        try {
          perNetwork = await http.request(
            { method: 'POST', path: '/analytics/post', body: { id: post.id }, describe: 'post analytics', repeatable: true, signal },
            AnyObject,
          );
        } catch (error) {
          if (!(isProviderError(error) && (error.kind === 'not_found' || error.kind === 'rejected'))) throw error;
        }
        let counted = false;
        for (const [key, value] of Object.entries(perNetwork)) {
          if (!fromAyrsharePlatform(key) || typeof value !== 'object' || value === null) continue;
          const metrics = (value as { analytics?: unknown }).analytics ?? value;
          tally.add(post.at, readMetrics(metrics), post.id, { platform: fromAyrsharePlatform(key) });
          counted = true;
        }
        if (!counted) tally.add(post.at, { views: 0, likes: 0, comments: 0, shares: 0 }, post.id);
      });
      return tally.result();
    },
  };
}

/** Ayrshare's partial failure: `status: "error"` with per-network `errors[]`, sent with HTTP 400 too. */
function isPartialFailure(answer: ProviderAnswer): boolean {
  if (answer.status !== 400 || typeof answer.json !== 'object' || answer.json === null) return false;
  const body = answer.json as { status?: unknown; errors?: unknown };
  return body.status === 'error' && Array.isArray(body.errors);
}
