/**
 * provider_b sandbox: a loopback server that speaks Post for Me's REST contract (its docs and open
 * server code; checked with its own SDK, `post-for-me`, in test/contract), with state, so publishing
 * can be tried end to end with no Post for Me account, and the adapter's tests run against real HTTP.
 *
 * Base URL: `${url}` = `http://127.0.0.1:<port>` (like `https://api.postforme.dev`); paths start /v1.
 *
 * Auth: `Authorization: Bearer <key>`; any key starting `sandbox_b_` is valid and owns its own
 * isolated state. Anything else: 401 `{statusCode:401, message:"Unauthorized"}`.
 * Each key starts with five social accounts, derived from the key (same ids on every start):
 * tiktok, instagram, youtube, facebook `connected` and x `disconnected` (option `defaultAccounts`).
 * Ids: account `spc_…`, post `sp_…`, result `spr_…`. Like the real API, account objects CARRY
 * `access_token` / `refresh_token` (values start `sandbox_access_token_` / `sandbox_refresh_token_`,
 * so a test can grep for a leak): a client must not keep or log them.
 *
 * Endpoints:
 *   GET    /v1/social-accounts            ?limit (50, max 100) &offset &platform &username &id
 *                                          &external_id (repeatable; `platform[]` also accepted)
 *                                          → {data:[{id, platform, username, user_id, status:
 *                                          "connected"|"disconnected", external_id, metadata,
 *                                          access_token, refresh_token, access_token_expires_at,
 *                                          refresh_token_expires_at, profile_photo_url}],
 *                                          meta:{limit, offset, total, next (URL or null)}}
 *   GET    /v1/social-accounts/{id}       one account; 404 "Social account not found"
 *   POST   /v1/social-accounts/{id}/disconnect   → the account, status "disconnected"
 *   POST   /v1/social-posts               {caption, social_accounts:[spc_…], media?:[{url,
 *                                          thumbnail_url?, ...}], scheduled_at? (ISO or null = now),
 *                                          isDraft?, external_id?, platform_configurations?,
 *                                          account_configurations?} → 201 SocialPost {id, caption,
 *                                          status, scheduled_at, media, social_accounts:[account...],
 *                                          external_id, platform_configurations,
 *                                          account_configurations, created_at, updated_at}.
 *                                          Bad body (caption missing or "", scheduled_at not in the
 *                                          future, an account id twice or unknown, media URL not https
 *                                          (http only on loopback)): 400 {statusCode:400, message:
 *                                          "Invalid Request", errors:[string...]}.
 *   GET    /v1/social-posts               ?limit &offset &status (draft|scheduled|processing|
 *                                          processed, else 400) &platform &social_account_id
 *                                          &external_id → {data, meta}
 *   GET    /v1/social-posts/{id}          404 {statusCode:404, message:"Post not found"}
 *   PUT    /v1/social-posts/{id}          full create body; processing/processed: 400 "Post has
 *                                          already been processed"
 *   DELETE /v1/social-posts/{id}          draft or scheduled → {success:true} (the post is gone: GET
 *                                          is 404 after); any other status → 400 {statusCode:400,
 *                                          message:"Can only delete draft or scheduled posts"}; 404.
 *   GET    /v1/social-post-results        ?post_id &social_account_id &platform (repeatable) &limit
 *                                          &offset → {data:[{id, post_id, social_account_id, success,
 *                                          error (string|null), details, platform_data:{id, url} ({}
 *                                          on failure)}], meta}
 *   GET    /v1/social-post-results/{id}   one result; 404 "Result not found"
 *   GET    /v1/social-account-feeds/{account_id}  ?expand=metrics &limit (50, max 100) &cursor
 *                                          &social_post_id &platform_post_id &external_post_id
 *                                          → {data:[{platform, social_account_id, platform_post_id,
 *                                          platform_url, caption, posted_at, social_post_id,
 *                                          social_post_result_id, external_post_id, metrics?}],
 *                                          meta:{cursor (of the next page, or null), limit, next (URL
 *                                          or null), has_more}}; newest first; only successful copies
 *                                          published through the sandbox; metrics only with
 *                                          expand=metrics. Any failure (unknown or disconnected
 *                                          account, `control.failFeed`) is a bare 500, as Post for
 *                                          Me answers it; a key on an older plan
 *                                          (`control.setLegacyPlan`) gets 401 "This feature requires
 *                                          new_pricing plan" for every feed.
 *
 * Post status: draft (never processed; isDraft wins over scheduled_at) | scheduled (until
 * scheduled_at) | processing (from scheduled_at, or from creation when null/past, for
 * `publishDelayMs`, default 3 000) | processed (results exist, one per social account: success, or
 * error). A result fails when: the account is disconnected, the platform was flagged with
 * `control.failPlatform`, the post has no media for a video platform (tiktok, instagram, youtube), or
 * (with `checkMedia`) a media URL did not answer at creation. Timing is on the sandbox clock
 * (real time × timeScale + advance()); posts move lazily when read.
 *
 * Feed metrics per platform (snake_case like the real networks'; growing deterministically with the
 * time since publish):
 *   tiktok, tiktok_business {view_count, like_count, comment_count, share_count}
 *   instagram               {views, likes, comments, shares, reach, saved}
 *   youtube                 {views, likes, dislikes, comments, favorites}   (no shares)
 *   facebook                {video_views, reactions_total, comments, shares, reach}
 *   x                       {impression_count, like_count, reply_count, retweet_count, quote_count}
 *   others                  {views, likes, comments, shares}
 *
 * State lives in memory: a restart forgets every post, unless `stateFile` is given (the local runtime
 * keeps it under DATA_DIR/sandboxes/), then it is written after each request and read at start.
 * Faults, counters and the clock: see sandbox-kit.ts and `ProviderBSandboxControl` below.
 */
import {
  INVALID_JSON,
  bearerToken,
  createSandboxClock,
  engagement,
  findRoute,
  hashDigits,
  hashToken,
  isAllowedMediaUrl,
  isRecord,
  isSandboxKey,
  mediaReachable,
  networkPost,
  parseIsoDate,
  randomToken,
  sandboxControl,
  sandboxOf,
  startSandboxServer,
  stateFile,
  type Sandbox,
  type SandboxControl,
  type SandboxOptions,
  type SandboxRequest,
  type SandboxResponse,
  type SandboxRoute,
} from './sandbox-kit';

export const PROVIDER_B_KEY_PREFIX = 'sandbox_b_';
const PROVIDER_B_PLATFORMS = ['bluesky', 'facebook', 'instagram', 'linkedin', 'pinterest', 'threads', 'tiktok', 'tiktok_business', 'x', 'youtube'] as const;
const PROVIDER_B_DEFAULT_ACCOUNTS: ReadonlyArray<{ platform: string; status: 'connected' | 'disconnected' }> = [
  { platform: 'tiktok', status: 'connected' },
  { platform: 'instagram', status: 'connected' },
  { platform: 'youtube', status: 'connected' },
  { platform: 'facebook', status: 'connected' },
  { platform: 'x', status: 'disconnected' },
];

const NEEDS_MEDIA = new Set(['tiktok', 'tiktok_business', 'instagram', 'youtube']);

type ProviderBPostStatus = 'draft' | 'scheduled' | 'processing' | 'processed';
const POST_STATUSES: readonly ProviderBPostStatus[] = ['draft', 'scheduled', 'processing', 'processed'];

interface ProviderBAccount {
  id: string;
  platform: string;
  username: string;
  user_id: string;
  status: 'connected' | 'disconnected';
  external_id: string | null;
  metadata: Record<string, unknown>;
  access_token: string;
  refresh_token: string;
  access_token_expires_at: string;
  refresh_token_expires_at: string;
  profile_photo_url: string;
}

interface ProviderBPostView {
  id: string;
  caption: string;
  status: ProviderBPostStatus;
  scheduled_at: string | null;
  media: Array<Record<string, unknown>>;
  social_accounts: ProviderBAccount[];
  external_id: string | null;
  platform_configurations: Record<string, unknown> | null;
  account_configurations: unknown[] | null;
  created_at: string;
  updated_at: string;
}

interface ProviderBResult {
  id: string;
  post_id: string;
  social_account_id: string;
  success: boolean;
  error: string | null;
  details: Record<string, unknown>;
  platform_data: { id?: string; url?: string };
}

interface StoredKey {
  apiKey: string;
  accounts: ProviderBAccount[];
  /** An older plan without account feeds: every feed is 401 "requires new_pricing plan". */
  legacyPlan?: boolean;
  /** Accounts whose feed fails (the network's API is down for them): 500. */
  failingFeeds?: string[];
}

interface StoredPost {
  id: string;
  apiKey: string;
  caption: string;
  status: ProviderBPostStatus;
  scheduledAt: number | null;
  media: Array<Record<string, unknown>>;
  accountIds: string[];
  externalId: string | null;
  platformConfigurations: Record<string, unknown> | null;
  accountConfigurations: unknown[] | null;
  createdAt: number;
  updatedAt: number;
  processingSince: number | null;
  processedAt: number | null;
  mediaOk: boolean;
}

interface StoredResult extends ProviderBResult {
  apiKey: string;
  platform: string;
  postedAt: number;
}

interface PersistedState {
  version: 1;
  keys: StoredKey[];
  posts: StoredPost[];
  results: StoredResult[];
}

export interface ProviderBSandboxOptions extends SandboxOptions {
  /** How long a post stays `processing`. Default 3 000 ms. */
  publishDelayMs?: number;
  /** Accounts of a new key. Default tiktok, instagram, youtube, facebook connected; x disconnected. */
  defaultAccounts?: ReadonlyArray<{ platform: string; status: 'connected' | 'disconnected' }>;
  /** GET each media URL when a post is created; unreachable = failed results. Default false. */
  checkMedia?: boolean;
}

interface ProviderBSandboxControl extends SandboxControl {
  /** Accounts of a key as the API lists them (tokens included). */
  accounts(apiKey: string): ProviderBAccount[];
  /** Connect or disconnect an account of a key, by id or by platform. */
  setAccountStatus(apiKey: string, accountIdOrPlatform: string, status: 'connected' | 'disconnected'): void;
  /** A post as GET /v1/social-posts/{id} would show it now (settled), or undefined (unknown or deleted). */
  post(id: string): ProviderBPostView | undefined;
  /** The per-account results of a post (empty until processed). */
  results(postId: string): ProviderBResult[];
  /** Make one account's feed fail (500, as Post for Me answers any feed failure); `false` heals it. */
  failFeed(apiKey: string, accountIdOrPlatform: string, failing?: boolean): void;
  /** Put a key on an older plan without feeds (every feed 401 "requires new_pricing plan"). */
  setLegacyPlan(apiKey: string, legacy: boolean): void;
}

export interface ProviderBSandbox extends Sandbox<ProviderBSandboxControl> {
  /** Base URL to put in PROVIDER_B_BASE_URL: `http://127.0.0.1:<port>` (paths start /v1). */
  url: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

const invalid = (errors: string[]): SandboxResponse => ({ status: 400, body: { statusCode: 400, message: 'Invalid Request', errors } });
const fail = (status: number, message: string): SandboxResponse => ({ status, body: { statusCode: status, message } });

const ROUTES: SandboxRoute[] = [
  ['GET', /^\/v1\/social-accounts\/?$/, 'GET /v1/social-accounts'],
  ['GET', /^\/v1\/social-accounts\/[^/]+\/?$/, 'GET /v1/social-accounts/:id'],
  ['POST', /^\/v1\/social-accounts\/[^/]+\/disconnect\/?$/, 'POST /v1/social-accounts/:id/disconnect'],
  ['POST', /^\/v1\/social-posts\/?$/, 'POST /v1/social-posts'],
  ['GET', /^\/v1\/social-posts\/?$/, 'GET /v1/social-posts'],
  ['GET', /^\/v1\/social-posts\/[^/]+\/?$/, 'GET /v1/social-posts/:id'],
  ['PUT', /^\/v1\/social-posts\/[^/]+\/?$/, 'PUT /v1/social-posts/:id'],
  ['DELETE', /^\/v1\/social-posts\/[^/]+\/?$/, 'DELETE /v1/social-posts/:id'],
  ['GET', /^\/v1\/social-post-results\/?$/, 'GET /v1/social-post-results'],
  ['GET', /^\/v1\/social-post-results\/[^/]+\/?$/, 'GET /v1/social-post-results/:id'],
  ['GET', /^\/v1\/social-account-feeds\/[^/]+\/?$/, 'GET /v1/social-account-feeds/:id'],
];

/** Repeatable query filters: `?x=a&x=b`, `?x[]=a`, and `?x=a,b` all give [a, b]. */
function multi(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(name), ...query.getAll(`${name}[]`)].flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
}

function paging(query: URLSearchParams): { limit: number; offset: number } | SandboxResponse {
  const errors: string[] = [];
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      errors.push(`${name} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const limit = read('limit', 50, 1, 100);
  const offset = read('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  return errors.length > 0 ? invalid(errors) : { limit, offset };
}

export async function startProviderBSandbox(options: ProviderBSandboxOptions = {}): Promise<ProviderBSandbox> {
  const clock = createSandboxClock(options.timeScale ?? 1);
  const publishDelayMs = options.publishDelayMs ?? 3_000;
  const defaultAccounts = options.defaultAccounts ?? PROVIDER_B_DEFAULT_ACCOUNTS;
  for (const a of defaultAccounts) assertPlatform(a.platform);
  const log = options.log ?? (() => undefined);
  const store = options.stateFile ? stateFile<PersistedState>(options.stateFile) : undefined;

  const keys = new Map<string, StoredKey>();
  const posts = new Map<string, StoredPost>();
  const results = new Map<string, StoredResult>();
  const failing = new Map<string, string>();
  let dirty = false;
  let origin = '';

  const loaded = store?.load();
  if (loaded?.version === 1) {
    for (const k of loaded.keys) keys.set(k.apiKey, k);
    for (const p of loaded.posts) posts.set(p.id, p);
    for (const r of loaded.results) results.set(r.id, r);
  }

  function assertPlatform(platform: string): void {
    if (!(PROVIDER_B_PLATFORMS as readonly string[]).includes(platform)) throw new Error(`provider_b sandbox: unknown platform "${platform}" (${PROVIDER_B_PLATFORMS.join(', ')})`);
  }

  // ----------------------------------------------------------------------------- identities

  function handleOf(apiKey: string): string {
    return apiKey.slice(PROVIDER_B_KEY_PREFIX.length).toLowerCase().replace(/[^a-z0-9_]/g, '').slice(0, 18) || 'sandbox';
  }

  function makeAccount(apiKey: string, platform: string, status: 'connected' | 'disconnected'): ProviderBAccount {
    const seed = `${apiKey}:${platform}`;
    const username = `${handleOf(apiKey)}.${platform}`;
    return {
      id: `spc_${hashToken(seed, 20)}`,
      platform,
      username,
      user_id: platform === 'youtube' ? `UC${hashToken(`${seed}:uid`, 22)}` : hashDigits(`${seed}:uid`, 17),
      status,
      external_id: null,
      metadata: { connected_via: 'sandbox' },
      access_token: `sandbox_access_token_${hashToken(`${seed}:at`, 32)}`,
      refresh_token: `sandbox_refresh_token_${hashToken(`${seed}:rt`, 32)}`,
      access_token_expires_at: '2030-01-01T00:00:00.000Z',
      refresh_token_expires_at: '2031-01-01T00:00:00.000Z',
      profile_photo_url: `https://api.dicebear.com/9.x/avataaars/png?seed=${encodeURIComponent(username)}`,
    };
  }

  function keyOf(apiKey: string): StoredKey {
    let entry = keys.get(apiKey);
    if (!entry) {
      entry = { apiKey, accounts: defaultAccounts.map((a) => makeAccount(apiKey, a.platform, a.status)) };
      keys.set(apiKey, entry);
      dirty = true;
    }
    return entry;
  }

  function networkCopy(account: ProviderBAccount, postId: string): { id: string; url: string } {
    return networkPost(account.platform, `${postId}:${account.id}`, {
      id: account.user_id,
      username: account.username,
      profileUrl: `https://www.${account.platform}.com/${account.username}`,
    });
  }

  // ----------------------------------------------------------------------------- lifecycle

  function settle(post: StoredPost): StoredPost {
    const now = clock.now();
    if (post.status === 'scheduled' && post.scheduledAt !== null && now >= post.scheduledAt) {
      post.status = 'processing';
      post.processingSince = post.scheduledAt;
      dirty = true;
    }
    if (post.status === 'processing' && post.processingSince !== null && now >= post.processingSince + publishDelayMs) {
      const at = post.processingSince + publishDelayMs;
      const owner = keyOf(post.apiKey);
      for (const accountId of post.accountIds) {
        const account = owner.accounts.find((a) => a.id === accountId)!;
        const reason =
          account.status !== 'connected' ? 'Social account is disconnected. Reconnect it, then post again.'
          : failing.get(account.platform)
            ?? (NEEDS_MEDIA.has(account.platform) && post.media.length === 0 ? `${account.platform} requires a video or image.`
            : !post.mediaOk ? 'Failed to download the media from its URL.'
            : null);
        const result: StoredResult = {
          id: `spr_${randomToken(20)}`,
          apiKey: post.apiKey,
          platform: account.platform,
          postedAt: at,
          post_id: post.id,
          social_account_id: account.id,
          success: reason === null,
          error: reason,
          details: reason === null ? { posted_at: iso(at) } : { failed_at: iso(at) },
          platform_data: reason === null ? networkCopy(account, post.id) : {},
        };
        results.set(result.id, result);
      }
      post.status = 'processed';
      post.processedAt = at;
      post.updatedAt = at;
      dirty = true;
    }
    return post;
  }

  const publicResult = ({ id, post_id, social_account_id, success, error, details, platform_data }: StoredResult): ProviderBResult => ({
    id,
    post_id,
    social_account_id,
    success,
    error,
    details: { ...details },
    platform_data: { ...platform_data },
  });

  function view(post: StoredPost): ProviderBPostView {
    settle(post);
    const owner = keyOf(post.apiKey);
    return {
      id: post.id,
      caption: post.caption,
      status: post.status,
      scheduled_at: post.scheduledAt === null ? null : iso(post.scheduledAt),
      media: post.media.map((m) => ({ ...m })),
      social_accounts: post.accountIds.map((id) => ({ ...owner.accounts.find((a) => a.id === id)! })),
      external_id: post.externalId,
      platform_configurations: post.platformConfigurations,
      account_configurations: post.accountConfigurations,
      created_at: iso(post.createdAt),
      updated_at: iso(post.updatedAt),
    };
  }

  // ----------------------------------------------------------------------------- handlers

  interface PostInput {
    caption: string;
    accountIds: string[];
    media: Array<Record<string, unknown>>;
    scheduledAt: number | null;
    isDraft: boolean;
    externalId: string | null;
    platformConfigurations: Record<string, unknown> | null;
    accountConfigurations: unknown[] | null;
  }

  function parsePostBody(owner: StoredKey, json: unknown): PostInput | SandboxResponse {
    if (json === INVALID_JSON) return invalid(['body must be valid JSON']);
    if (!isRecord(json)) return invalid(['body must be a JSON object']);
    const errors: string[] = [];
    if (typeof json.caption !== 'string') errors.push('caption must be a string');
    else if (json.caption === '') errors.push('caption should not be empty');
    const accounts = json.social_accounts;
    if (!Array.isArray(accounts) || accounts.length === 0) errors.push('social_accounts must contain at least 1 elements');
    else if (!accounts.every((a) => typeof a === 'string')) errors.push('each value in social_accounts must be a string');
    else if (new Set(accounts).size !== accounts.length) errors.push("All social_accounts's elements must be unique");
    else for (const id of accounts as string[]) if (!owner.accounts.some((a) => a.id === id)) errors.push(`social account ${id} not found`);
    const media = json.media ?? [];
    if (!Array.isArray(media)) errors.push('media must be an array');
    else
      media.forEach((m, i) => {
        if (!isRecord(m) || typeof m.url !== 'string' || !isAllowedMediaUrl(m.url)) errors.push(`media.${i}.url must be a public https URL (http only on loopback in the sandbox)`);
        else if (m.thumbnail_url !== undefined && m.thumbnail_url !== null && (typeof m.thumbnail_url !== 'string' || !isAllowedMediaUrl(m.thumbnail_url))) errors.push(`media.${i}.thumbnail_url must be a public https URL`);
      });
    let scheduledAt: number | null = null;
    if (json.scheduled_at !== undefined && json.scheduled_at !== null) {
      scheduledAt = typeof json.scheduled_at === 'string' ? parseIsoDate(json.scheduled_at) : null;
      if (scheduledAt === null) errors.push('scheduled_at must be a valid ISO 8601 date string');
      else if (scheduledAt <= clock.now()) errors.push('scheduled_at must be in the future');
    }
    if (json.isDraft !== undefined && json.isDraft !== null && typeof json.isDraft !== 'boolean') errors.push('isDraft must be a boolean value');
    if (json.external_id !== undefined && json.external_id !== null && typeof json.external_id !== 'string') errors.push('external_id must be a string');
    if (json.platform_configurations !== undefined && json.platform_configurations !== null && !isRecord(json.platform_configurations)) errors.push('platform_configurations must be an object');
    if (json.account_configurations !== undefined && json.account_configurations !== null && !Array.isArray(json.account_configurations)) errors.push('account_configurations must be an array');
    if (errors.length > 0) return invalid(errors);
    return {
      caption: json.caption as string,
      accountIds: [...(accounts as string[])],
      media: (media as Array<Record<string, unknown>>).map((m) => ({ ...m })),
      scheduledAt,
      isDraft: json.isDraft === true,
      externalId: (json.external_id as string | null | undefined) ?? null,
      platformConfigurations: (json.platform_configurations as Record<string, unknown> | null | undefined) ?? null,
      accountConfigurations: (json.account_configurations as unknown[] | null | undefined) ?? null,
    };
  }

  /** Draft, scheduled (future) or processing from now (null or past scheduled_at). */
  function applyInput(post: StoredPost, input: PostInput, now: number): void {
    post.caption = input.caption;
    post.accountIds = input.accountIds;
    post.media = input.media;
    post.scheduledAt = input.scheduledAt;
    post.externalId = input.externalId;
    post.platformConfigurations = input.platformConfigurations;
    post.accountConfigurations = input.accountConfigurations;
    post.updatedAt = now;
    if (input.isDraft) {
      post.status = 'draft';
      post.processingSince = null;
    } else if (input.scheduledAt !== null && input.scheduledAt > now) {
      post.status = 'scheduled';
      post.processingSince = null;
    } else {
      post.status = 'processing';
      post.processingSince = now;
    }
  }

  async function checkMedia(input: PostInput): Promise<boolean> {
    if (!options.checkMedia) return true;
    for (const m of input.media) if (!(await mediaReachable(m.url as string))) return false;
    return true;
  }

  async function createPost(owner: StoredKey, json: unknown): Promise<SandboxResponse> {
    const input = parsePostBody(owner, json);
    if ('status' in input && 'body' in input) return input;
    const parsed = input as PostInput;
    const mediaOk = await checkMedia(parsed);
    const now = clock.now();
    const post: StoredPost = {
      id: `sp_${randomToken(20)}`,
      apiKey: owner.apiKey,
      caption: '',
      status: 'draft',
      scheduledAt: null,
      media: [],
      accountIds: [],
      externalId: null,
      platformConfigurations: null,
      accountConfigurations: null,
      createdAt: now,
      updatedAt: now,
      processingSince: null,
      processedAt: null,
      mediaOk,
    };
    applyInput(post, parsed, now);
    posts.set(post.id, post);
    dirty = true;
    return { status: 201, body: view(post) };
  }

  async function updatePost(owner: StoredKey, post: StoredPost, json: unknown): Promise<SandboxResponse> {
    if (post.status === 'processing' || post.status === 'processed') return fail(400, 'Post has already been processed');
    const input = parsePostBody(owner, json);
    if ('status' in input && 'body' in input) return input;
    const parsed = input as PostInput;
    const mediaOk = await checkMedia(parsed);
    if (!posts.has(post.id)) return fail(404, 'Post not found');
    // The media check awaited: the post may have moved on meanwhile.
    const status: ProviderBPostStatus = settle(post).status;
    if (status === 'processing' || status === 'processed') return fail(400, 'Post has already been processed');
    post.mediaOk = mediaOk;
    applyInput(post, parsed, clock.now());
    dirty = true;
    return { status: 200, body: view(post) };
  }

  function findPost(owner: StoredKey, id: string): StoredPost | undefined {
    const post = posts.get(id);
    return post && post.apiKey === owner.apiKey ? settle(post) : undefined;
  }

  function listEnvelope<T>(items: T[], page: { limit: number; offset: number }, url: URL): SandboxResponse {
    const data = items.slice(page.offset, page.offset + page.limit);
    let next: string | null = null;
    if (page.offset + page.limit < items.length) {
      const nextUrl = new URL(url.pathname + url.search, origin);
      nextUrl.searchParams.set('offset', String(page.offset + page.limit));
      nextUrl.searchParams.set('limit', String(page.limit));
      next = nextUrl.toString();
    }
    return { status: 200, body: { data, meta: { limit: page.limit, offset: page.offset, total: items.length, next } } };
  }

  function listAccounts(owner: StoredKey, url: URL): SandboxResponse {
    const page = paging(url.searchParams);
    if ('status' in page) return page;
    const q = url.searchParams;
    const [platform, username, id, externalId] = [multi(q, 'platform'), multi(q, 'username'), multi(q, 'id'), multi(q, 'external_id')];
    const items = owner.accounts
      .filter((a) => !platform || platform.includes(a.platform))
      .filter((a) => !username || username.includes(a.username))
      .filter((a) => !id || id.includes(a.id))
      .filter((a) => !externalId || (a.external_id !== null && externalId.includes(a.external_id)))
      .map((a) => ({ ...a }));
    return listEnvelope(items, page, url);
  }

  function listPosts(owner: StoredKey, url: URL): SandboxResponse {
    const page = paging(url.searchParams);
    if ('status' in page) return page;
    const q = url.searchParams;
    const [status, platform, accountId, externalId] = [multi(q, 'status'), multi(q, 'platform'), multi(q, 'social_account_id'), multi(q, 'external_id')];
    const unknownStatus = status?.filter((s) => !(POST_STATUSES as readonly string[]).includes(s)) ?? [];
    if (unknownStatus.length > 0) return invalid([`each value in status must be one of the following values: ${POST_STATUSES.join(', ')}`]);
    const items = [...posts.values()]
      .filter((p) => p.apiKey === owner.apiKey)
      .map(settle)
      .filter((p) => !status || status.includes(p.status))
      .filter((p) => !accountId || p.accountIds.some((a) => accountId.includes(a)))
      .filter((p) => !platform || p.accountIds.some((a) => platform.includes(owner.accounts.find((x) => x.id === a)?.platform ?? '')))
      .filter((p) => !externalId || (p.externalId !== null && externalId.includes(p.externalId)))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .map(view);
    return listEnvelope(items, page, url);
  }

  function ownResults(owner: StoredKey): StoredResult[] {
    for (const post of posts.values()) if (post.apiKey === owner.apiKey) settle(post);
    return [...results.values()].filter((r) => r.apiKey === owner.apiKey);
  }

  function listResults(owner: StoredKey, url: URL): SandboxResponse {
    const page = paging(url.searchParams);
    if ('status' in page) return page;
    const q = url.searchParams;
    const [postId, accountId, platform] = [multi(q, 'post_id'), multi(q, 'social_account_id'), multi(q, 'platform')];
    const items = ownResults(owner)
      .filter((r) => !postId || postId.includes(r.post_id))
      .filter((r) => !accountId || accountId.includes(r.social_account_id))
      .filter((r) => !platform || platform.includes(r.platform))
      .sort((a, b) => b.postedAt - a.postedAt || (a.id < b.id ? 1 : -1))
      .map(publicResult);
    return listEnvelope(items, page, url);
  }

  function feedMetrics(result: StoredResult): Record<string, number> {
    const m = engagement(`${result.post_id}:${result.social_account_id}`, result.postedAt, clock.now());
    switch (result.platform) {
      case 'tiktok':
      case 'tiktok_business':
        return { view_count: m.views, like_count: m.likes, comment_count: m.comments, share_count: m.shares };
      case 'instagram':
        return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares, reach: m.reach, saved: m.saves };
      case 'youtube':
        return { views: m.views, likes: m.likes, dislikes: Math.floor(m.likes * 0.03), comments: m.comments, favorites: m.saves };
      case 'facebook':
        return { video_views: m.views, reactions_total: m.likes, comments: m.comments, shares: m.shares, reach: m.reach };
      case 'x':
        return { impression_count: m.views, like_count: m.likes, reply_count: m.comments, retweet_count: m.shares, quote_count: Math.floor(m.shares / 3) };
      default:
        return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares };
    }
  }

  function feed(owner: StoredKey, accountId: string, url: URL): SandboxResponse {
    // Post for Me's feed handler answers any failure (unknown account, expired token, the network's
    // API down) with a bare 500, and a plan without feeds with a 401.
    if (owner.legacyPlan) return fail(401, 'This feature requires new_pricing plan');
    const account = owner.accounts.find((a) => a.id === accountId);
    if (!account || account.status !== 'connected' || owner.failingFeeds?.includes(account.id)) return fail(500, 'Internal server error');
    const q = url.searchParams;
    const rawLimit = q.get('limit');
    const limit = rawLimit === null || rawLimit === '' ? 50 : /^\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= 1 && limit <= 100)) return invalid(['limit must be an integer from 1 to 100']);
    let offset = 0;
    const cursor = q.get('cursor');
    if (cursor) {
      try {
        const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
        if (typeof decoded.o !== 'number' || !Number.isInteger(decoded.o) || decoded.o < 0) throw new Error('bad');
        offset = decoded.o;
      } catch {
        return invalid(['cursor is not valid']);
      }
    }
    const expand = multi(q, 'expand') ?? [];
    const [postIds, platformPostIds, externalIds] = [multi(q, 'social_post_id'), multi(q, 'platform_post_id'), multi(q, 'external_post_id')];
    const items = ownResults(owner)
      .filter((r) => r.social_account_id === account.id && r.success)
      .filter((r) => !postIds || postIds.includes(r.post_id))
      .filter((r) => !platformPostIds || (r.platform_data.id !== undefined && platformPostIds.includes(r.platform_data.id)))
      .filter((r) => !externalIds || externalIds.includes(posts.get(r.post_id)?.externalId ?? ''))
      .sort((a, b) => b.postedAt - a.postedAt || (a.id < b.id ? 1 : -1));
    const pageItems = items.slice(offset, offset + limit).map((r) => {
      const post = posts.get(r.post_id);
      return {
        platform: r.platform,
        social_account_id: r.social_account_id,
        platform_post_id: r.platform_data.id!,
        platform_url: r.platform_data.url!,
        caption: post?.caption ?? '',
        posted_at: iso(r.postedAt),
        social_post_id: r.post_id,
        social_post_result_id: r.id,
        external_post_id: post?.externalId ?? null,
        ...(expand.includes('metrics') ? { metrics: feedMetrics(r) } : {}),
      };
    });
    const hasMore = offset + limit < items.length;
    const nextCursor = hasMore ? Buffer.from(JSON.stringify({ o: offset + limit })).toString('base64url') : null;
    let next: string | null = null;
    if (nextCursor) {
      const nextUrl = new URL(url.pathname + url.search, origin);
      nextUrl.searchParams.set('cursor', nextCursor);
      next = nextUrl.toString();
    }
    return { status: 200, body: { data: pageItems, meta: { cursor: nextCursor, limit, next, has_more: hasMore } } };
  }

  async function handle(req: SandboxRequest): Promise<SandboxResponse> {
    const route = findRoute(ROUTES, req.method, req.path);
    if (!route) return { status: 404, body: { statusCode: 404, message: `Cannot ${req.method} ${req.path}`, error: 'Not Found' } };
    const apiKey = bearerToken(req.headers);
    if (!isSandboxKey(apiKey, PROVIDER_B_KEY_PREFIX)) return fail(401, 'Unauthorized');
    const owner = keyOf(apiKey);
    const segments = req.path.replace(/\/$/, '').split('/').map(decodeURIComponent);
    const id = segments[3] ?? '';

    switch (route) {
      case 'GET /v1/social-accounts':
        return listAccounts(owner, req.url);
      case 'GET /v1/social-accounts/:id': {
        const account = owner.accounts.find((a) => a.id === id);
        return account ? { status: 200, body: { ...account } } : fail(404, 'Social account not found');
      }
      case 'POST /v1/social-accounts/:id/disconnect': {
        const account = owner.accounts.find((a) => a.id === id);
        if (!account) return fail(404, 'Social account not found');
        account.status = 'disconnected';
        dirty = true;
        return { status: 200, body: { ...account } };
      }
      case 'POST /v1/social-posts':
        return createPost(owner, req.json);
      case 'GET /v1/social-posts':
        return listPosts(owner, req.url);
      case 'GET /v1/social-posts/:id': {
        const post = findPost(owner, id);
        return post ? { status: 200, body: view(post) } : fail(404, 'Post not found');
      }
      case 'PUT /v1/social-posts/:id': {
        const post = findPost(owner, id);
        return post ? updatePost(owner, post, req.json) : fail(404, 'Post not found');
      }
      case 'DELETE /v1/social-posts/:id': {
        const post = findPost(owner, id);
        if (!post) return fail(404, 'Post not found');
        if (post.status !== 'draft' && post.status !== 'scheduled') return fail(400, 'Can only delete draft or scheduled posts');
        posts.delete(post.id);
        dirty = true;
        return { status: 200, body: { success: true } };
      }
      case 'GET /v1/social-post-results':
        return listResults(owner, req.url);
      case 'GET /v1/social-post-results/:id': {
        const result = ownResults(owner).find((r) => r.id === id);
        return result ? { status: 200, body: publicResult(result) } : fail(404, 'Result not found');
      }
      default:
        return feed(owner, id, req.url);
    }
  }

  const server = await startSandboxServer({
    port: options.port,
    clock,
    flavour: {
      routeOf: (method, path) => findRoute(ROUTES, method, path),
      unavailable: () => ({ statusCode: 503, message: 'Service Unavailable' }),
      rateLimited: () => ({ statusCode: 429, message: 'Too Many Requests' }),
      internalError: () => ({ statusCode: 500, message: 'Internal Server Error' }),
      wrongShape: (path) => (/^\/v1\/social-(accounts|post-results|account-feeds)|^\/v1\/social-posts\/?$/.test(path) ? { data: { items: 'unexpected' }, meta: null } : { id: 42, status: ['unexpected'] }),
    },
    handle,
    afterRequest: persist,
    onError: (e) => log(`provider_b sandbox: ${String(e)}`),
  });
  origin = server.origin;

  function persist(): void {
    if (!store || !dirty) return;
    dirty = false;
    store.save({ version: 1, keys: [...keys.values()], posts: [...posts.values()], results: [...results.values()] });
  }

  const settleAll = () => {
    for (const post of posts.values()) settle(post);
  };

  const control: ProviderBSandboxControl = {
    ...sandboxControl({
      server,
      clock,
      failing,
      failure: (platform, given) => given.message ?? `${platform} rejected the post (sandbox: failPlatform).`,
      assertPlatform,
      settleAll,
      posts,
      view,
      persist,
    }),
    accounts: (apiKey) => keyOf(apiKey).accounts.map((a) => ({ ...a })),
    setAccountStatus(apiKey, accountIdOrPlatform, status) {
      settleAll();
      const account = keyOf(apiKey).accounts.find((a) => a.id === accountIdOrPlatform || a.platform === accountIdOrPlatform);
      if (!account) throw new Error(`provider_b sandbox: no account ${accountIdOrPlatform} for that key`);
      account.status = status;
      dirty = true;
      persist();
    },
    failFeed(apiKey, accountIdOrPlatform, failing = true) {
      const owner = keyOf(apiKey);
      const account = owner.accounts.find((a) => a.id === accountIdOrPlatform || a.platform === accountIdOrPlatform);
      if (!account) throw new Error(`provider_b sandbox: no account ${accountIdOrPlatform} for that key`);
      const others = (owner.failingFeeds ?? []).filter((id) => id !== account.id);
      owner.failingFeeds = failing ? [...others, account.id] : others;
      dirty = true;
      persist();
    },
    setLegacyPlan(apiKey, legacy) {
      keyOf(apiKey).legacyPlan = legacy;
      dirty = true;
      persist();
    },
    results(postId) {
      const post = posts.get(postId);
      if (post) settle(post);
      persist();
      return [...results.values()].filter((r) => r.post_id === postId).map(publicResult);
    },
  };

  return sandboxOf(server, control, persist);
}
