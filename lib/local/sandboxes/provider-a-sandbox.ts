/**
 * provider_a sandbox: a loopback server that speaks Ayrshare's documented REST contract (checked with
 * Ayrshare's own SDK, `social-media-api`, in test/contract), with state, so publishing can be tried
 * end to end with no Ayrshare account, and the adapter's tests run against real HTTP.
 *
 * Base URL: `${url}` = `http://127.0.0.1:<port>/api` (like `https://api.ayrshare.com/api`).
 *
 * Auth: `Authorization: Bearer <key>`; any key starting `sandbox_a_` is valid and owns its own
 * isolated state. Anything else: 401 `{status:"error", code:102, message}`. The optional
 * `Profile-Key` header selects a User Profile under that key, isolated too (any value is accepted).
 * Each profile starts with tiktok, instagram, youtube, facebook linked (the `defaultPlatforms` option
 * or `control.linkPlatforms` change it). Names, ids and URLs are derived from the key, so they are the
 * same on every start: key `sandbox_a_demo` has username `demo_tiktok` on TikTok, etc.
 * Ayrshare spells X `twitter`; the sandbox accepts Ayrshare's names only.
 *
 * Endpoints (paths relative to the base URL):
 *   GET    /user                 {activeSocialAccounts (omitted when nothing linked), displayNames:
 *                                 [{platform, id, displayName, username, profileUrl, userImage, created}],
 *                                 title, refId}
 *   POST   /post                 {post (string, "" ok), platforms (array ⊆ linked, or "all"), mediaUrls?
 *                                 (https, or http on loopback), isVideo?, scheduleDate? (ISO UTC, future),
 *                                 requiresApproval?, idempotencyKey?, youTubeOptions.title (required
 *                                 with youtube)}; tiktok/instagram/youtube need a media URL.
 *                                 → {status, id, refId, post, platforms, postIds, errors,
 *                                 scheduleDate, type}. Sent now: it goes out at once, so `status` is
 *                                 "success" with one postIds entry per network, or "error" (HTTP 400)
 *                                 with errors[] beside the postIds that went out; a TikTok copy is
 *                                 {platform, status:"success", id:"pending"} (no postUrl) until its
 *                                 network has processed it, `publishDelayMs` later (an injected
 *                                 failure then moves it to errors[] and the post to "error").
 *                                 Scheduled: "scheduled" (GET shows "pending" until it goes out).
 *                                 Held: "awaiting approval". The same idempotencyKey (per profile)
 *                                 answers the same post again. Bad input: 400 {status:"error", code,
 *                                 message, errors?}.
 *   GET    /post/:id, /history/:id  {id, status, post, platforms, mediaUrls, postIds:[{platform, status,
 *                                 id, postUrl}], errors:[{action, status, code, message, platform}],
 *                                 scheduleDate (null when immediate), created, type:"now"|"scheduled",
 *                                 requiresApproval, approved, refId, profileTitle}; 404 code 136.
 *   PATCH|PUT /post              {id, approved:true} releases an "awaiting approval" post (publishes at
 *                                 once when its scheduleDate has passed); {id, scheduleDate?, post?}
 *                                 edits a post not sent yet. → {status:"success", id, ...}
 *   DELETE /post                 {id} | {bulk:[ids]} | {deleteAllScheduled:true}, optional
 *                                 markManualDeleted. Pending or awaiting approval: cancelled, status
 *                                 "deleted", 200 {status:"success", id}. Published: removed from each
 *                                 network, 200 {status:"success", id, <platform>:{action:"delete",
 *                                 status:"success", id}}; EXCEPT instagram and tiktok (no delete API):
 *                                 those get {action:"delete", status:"error", code:301, message} in the
 *                                 answer, whose top-level status is then "error" with errors[]: HTTP
 *                                 200 when another network's copy was removed (a partial delete; the
 *                                 post keeps its status until every copy is gone), 400 when nothing
 *                                 could be removed (every published copy is on Instagram/TikTok).
 *                                 Already deleted: 400 code 137. Unknown id: 404 code 136.
 *   PUT    /post/retry           {id} of a post in status "error": its failed networks are tried
 *                                 again (with this request's X headers) → the create answer; other
 *                                 statuses 400, unknown 404.
 *   GET    /history              ?lastDays (default 30, 0 = all; counted from when a post went out,
 *                                 or is due to) &lastRecords (the newest N, instead of lastDays)
 *                                 &status &limit (25, max 1000) &type (immediate|scheduled)
 *                                 &platforms (comma list) → {history:[post...], count, refId,
 *                                 lastUpdated, nextUpdate}; newest first; deleted posts only with
 *                                 status=deleted.
 *   GET    /history/:platform    what the network shows of the profile: {status:"success", platform,
 *                                 posts:[{id, post, postUrl, created, ayrshareId}]}; not linked 400.
 *   POST   /analytics/post       {id, platforms?} (or {id:<network post id>, platforms:[one],
 *                                 searchPlatformId:true}) → {status:"success", id, <platform>:{id,
 *                                 postUrl, analytics:{...}, lastUpdated, nextUpdate}}; 400 code 302 when
 *                                 nothing is published yet. A platform whose copy was deleted answers
 *                                 {status:"error", code:303, message}.
 *   POST   /analytics/social     {platforms} → {status:"success", <platform>:{analytics:{...}}}.
 *
 * X (`twitter`): since 2026-03-31 Ayrshare needs the owner's X app on every X operation, as the
 * headers X-Twitter-OAuth1-Api-Key and X-Twitter-OAuth1-Api-Secret. Without them an X copy fails
 * (code 170, at publish, delete and analytics; a scheduled post remembers the headers it was created
 * with), and GET /history/twitter is 400.
 *
 * Post status: "pending" (scheduled or about to go out) → "success" (every platform published) or
 * "error" (at least one platform failed: a partial failure when postIds is not empty); "awaiting
 * approval" until PATCH approved; "deleted". postIds lists the platforms that published (status
 * "success", or "deleted" once removed); errors lists the platforms that failed.
 * Timing: an immediate post goes out when accepted, a scheduled one at its scheduleDate, an approved
 * one when approved (or at its scheduleDate); a TikTok copy is processed `publishDelayMs` (default
 * 2 000) later; all on the sandbox clock (real time × timeScale + advance()).
 *
 * Analytics field names per network (they differ like the real networks'), all growing
 * deterministically with the time since publish (same post + same elapsed time = same numbers):
 *   tiktok    {videoViews, likes, comments, shares, reach}
 *   instagram {views, likeCount, commentsCount, sharesCount, reachCount, savedCount}
 *   youtube   {views, likes, comments, shares, dislikes}
 *   facebook  {videoViews, reactions:{like, love, total}, commentCount, sharesCount, impressionsUnique}
 *   twitter   {impressionCount, likeCount, replyCount, retweetCount}
 *   others    {views, likes, comments, shares}
 * Account analytics (/analytics/social): tiktok {followerCount, videoCount, likeCount}, instagram
 * {followersCount, mediaCount}, youtube {subscriberCount, videoCount, viewCount}, facebook
 * {followersCount, fanCount}, others {followers}.
 *
 * Error codes are the sandbox's own (Ayrshare's exact numbers are not all documented): 101 bad
 * parameters, 102 bad API key, 103 method not allowed, 104 unknown endpoint, 135 scheduleDate not in
 * the future, 136 post not found, 137 already deleted, 138 media URL unreachable, 139 approval state,
 * 156 platform not linked, 157 text too long for a platform, 170 X app headers missing, 199
 * injected platform failure, 301
 * delete not supported by the network, 302 analytics before publish, 303 analytics of a deleted
 * copy, 429 rate limited, 500 internal, 503 unavailable.
 *
 * State lives in memory: a restart forgets every post, unless `stateFile` is given (the local runtime
 * keeps it under DATA_DIR/sandboxes/), then it is written after each request and read at start.
 * Faults, counters and the clock: see sandbox-kit.ts and `ProviderASandboxControl` below.
 */
import {
  INVALID_JSON,
  bearerToken,
  createSandboxClock,
  engagement,
  findRoute,
  hashDigits,
  hashInt,
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

export const PROVIDER_A_KEY_PREFIX = 'sandbox_a_';
const PROVIDER_A_DEFAULT_PLATFORMS = ['tiktok', 'instagram', 'youtube', 'facebook'] as const;
/** Every platform name the sandbox knows (Ayrshare's spellings). */
const PROVIDER_A_PLATFORMS = ['bluesky', 'facebook', 'gmb', 'instagram', 'linkedin', 'pinterest', 'reddit', 'snapchat', 'telegram', 'threads', 'tiktok', 'twitter', 'youtube'] as const;
/** Published copies on these networks cannot be deleted through the API (Ayrshare's rule). */
const PROVIDER_A_UNDELETABLE = ['instagram', 'tiktok'] as const;

const NEEDS_MEDIA = new Set(['tiktok', 'instagram', 'youtube', 'snapchat']);
/** Networks that publish asynchronously: Ayrshare answers their copy with `id: "pending"` first. */
const PROCESSED_LATER = new Set(['tiktok']);
const X_APP_HEADERS = ['x-twitter-oauth1-api-key', 'x-twitter-oauth1-api-secret'] as const;
const TEXT_LIMITS: Record<string, number> = { twitter: 280, tiktok: 2200, instagram: 2200, threads: 500, bluesky: 300, linkedin: 3000, youtube: 5000, pinterest: 500, facebook: 63206 };
const POST_STATUSES = ['pending', 'awaiting approval', 'success', 'error', 'deleted', 'paused', 'processing'] as const;

type ProviderAPostStatus = 'pending' | 'awaiting approval' | 'success' | 'error' | 'deleted';

interface ProviderAPostId {
  platform: string;
  status: 'success' | 'deleted';
  /** "pending" while the network is still processing the copy (TikTok); then no postUrl yet. */
  id: string;
  postUrl?: string;
}

interface ProviderAError {
  action: string;
  status: 'error';
  code: number;
  message: string;
  platform: string;
}

/** What GET /post/:id answers. */
interface ProviderAPostView {
  id: string;
  status: ProviderAPostStatus;
  post: string;
  platforms: string[];
  mediaUrls: string[];
  postIds: ProviderAPostId[];
  errors: ProviderAError[];
  scheduleDate: string | null;
  created: string;
  type: 'now' | 'scheduled';
  requiresApproval: boolean;
  approved: boolean;
  refId: string;
  profileTitle: string;
}

interface StoredProfile {
  key: string;
  apiKey: string;
  profileKey: string | null;
  platforms: string[];
  idempotency: Record<string, string>;
}

interface StoredPost {
  id: string;
  profile: string;
  post: string;
  platforms: string[];
  mediaUrls: string[];
  isVideo: boolean;
  scheduleDate: number | null;
  requiresApproval: boolean;
  approved: boolean;
  status: ProviderAPostStatus;
  created: number;
  /** When it goes out (null: waits for approval, or already out). */
  publishAt: number | null;
  publishedAt: number | null;
  postIds: ProviderAPostId[];
  errors: ProviderAError[];
  /** Platform copies removed, with when (analytics stop growing there). */
  deletedAt: Record<string, number>;
  mediaOk: boolean;
  /** Copies accepted but still processed by their network (TikTok), with when they finish. */
  processing?: Record<string, number>;
  /** Whether the request that created (or last retried) it carried the X app headers. */
  xApp?: boolean;
}

interface PersistedState {
  version: 1;
  profiles: StoredProfile[];
  posts: StoredPost[];
}

export interface ProviderASandboxOptions extends SandboxOptions {
  /** How long a TikTok copy stays `id: "pending"` after its post went out. Default 2 000 ms. */
  publishDelayMs?: number;
  /** Platforms linked on a new profile. Default tiktok, instagram, youtube, facebook. */
  defaultPlatforms?: readonly string[];
  /** GET each media URL when a post is created; unreachable = 400 code 138. Default false. */
  checkMedia?: boolean;
}

interface ProviderASandboxControl extends SandboxControl {
  /** Replace the linked platforms of a profile (created if new). [] = nothing linked. */
  linkPlatforms(apiKey: string, platforms: readonly string[], profileKey?: string | null): void;
  /** A post as GET /post/:id would show it now (settled), or undefined. */
  post(id: string): ProviderAPostView | undefined;
}

export interface ProviderASandbox extends Sandbox<ProviderASandboxControl> {
  /** Base URL to put in PROVIDER_A_BASE_URL: `http://127.0.0.1:<port>/api`. */
  url: string;
}

const CODES = {
  badRequest: 101,
  badKey: 102,
  methodNotAllowed: 103,
  unknownEndpoint: 104,
  scheduleInPast: 135,
  notFound: 136,
  alreadyDeleted: 137,
  mediaUnreachable: 138,
  approval: 139,
  notLinked: 156,
  textTooLong: 157,
  xAppMissing: 170,
  injectedFailure: 199,
  deleteUnsupported: 301,
  notPublished: 302,
  copyDeleted: 303,
} as const;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const capitalise = (s: string) => (s === 'tiktok' ? 'TikTok' : s === 'youtube' ? 'YouTube' : s === 'linkedin' ? 'LinkedIn' : s.charAt(0).toUpperCase() + s.slice(1));

function error(status: number, code: number, message: string, extra: Record<string, unknown> = {}): SandboxResponse {
  return { status, body: { action: extra.action ?? 'request', status: 'error', code, message, ...extra } };
}

const ROUTES: SandboxRoute[] = [
  ['GET', /^\/api\/user\/?$/, 'GET /api/user'],
  ['POST', /^\/api\/post\/?$/, 'POST /api/post'],
  ['PATCH', /^\/api\/post\/?$/, 'PATCH /api/post'],
  // Ayrshare's own SDK updates with PUT: both verbs edit.
  ['PUT', /^\/api\/post\/?$/, 'PUT /api/post'],
  ['PUT', /^\/api\/post\/retry\/?$/, 'PUT /api/post/retry'],
  ['DELETE', /^\/api\/post\/?$/, 'DELETE /api/post'],
  ['GET', /^\/api\/post\/[^/]+\/?$/, 'GET /api/post/:id'],
  ['GET', /^\/api\/history\/?$/, 'GET /api/history'],
  [
    'GET',
    new RegExp(`^/api/history/(${PROVIDER_A_PLATFORMS.join('|')})/?$`),
    'GET /api/history/:platform',
  ],
  ['GET', /^\/api\/history\/[^/]+\/?$/, 'GET /api/history/:id'],
  ['POST', /^\/api\/analytics\/post\/?$/, 'POST /api/analytics/post'],
  ['POST', /^\/api\/analytics\/social\/?$/, 'POST /api/analytics/social'],
];

export async function startProviderASandbox(options: ProviderASandboxOptions = {}): Promise<ProviderASandbox> {
  const clock = createSandboxClock(options.timeScale ?? 1);
  const publishDelayMs = options.publishDelayMs ?? 2_000;
  const defaultPlatforms = [...(options.defaultPlatforms ?? PROVIDER_A_DEFAULT_PLATFORMS)];
  const log = options.log ?? (() => undefined);
  const store = options.stateFile ? stateFile<PersistedState>(options.stateFile) : undefined;

  const profiles = new Map<string, StoredProfile>();
  const posts = new Map<string, StoredPost>();
  const failing = new Map<string, { code: number; message: string }>();
  let dirty = false;

  const loaded = store?.load();
  if (loaded?.version === 1) {
    for (const p of loaded.profiles) profiles.set(p.key, p);
    for (const p of loaded.posts) posts.set(p.id, p);
  }

  for (const p of defaultPlatforms) assertPlatform(p);

  // ----------------------------------------------------------------------------- identities

  function profileOf(apiKey: string, profileKey: string | null): StoredProfile {
    const key = `${apiKey}\n${profileKey ?? ''}`;
    let profile = profiles.get(key);
    if (!profile) {
      profile = { key, apiKey, profileKey, platforms: [...defaultPlatforms], idempotency: {} };
      profiles.set(key, profile);
      dirty = true;
    }
    return profile;
  }

  /** `demo` for `sandbox_a_demo`; a profile key adds a short stable suffix. */
  function handleOf(profile: StoredProfile): string {
    const base = profile.apiKey.slice(PROVIDER_A_KEY_PREFIX.length).toLowerCase().replace(/[^a-z0-9_]/g, '').slice(0, 18) || 'sandbox';
    return profile.profileKey ? `${base}_${hashToken(profile.profileKey, 4).toLowerCase()}` : base;
  }

  function accountOf(profile: StoredProfile, platform: string) {
    const seed = `${profile.key}:${platform}`;
    const username = `${handleOf(profile)}_${platform}`;
    const id = platform === 'youtube' ? `UC${hashToken(seed, 22)}` : hashDigits(seed, platform === 'facebook' ? 15 : 17);
    const profileUrl =
      platform === 'tiktok' ? `https://www.tiktok.com/@${username}`
      : platform === 'instagram' ? `https://www.instagram.com/${username}`
      : platform === 'youtube' ? `https://www.youtube.com/@${username}`
      : platform === 'facebook' ? `https://www.facebook.com/${id}`
      : platform === 'twitter' ? `https://x.com/${username}`
      : platform === 'threads' ? `https://www.threads.net/@${username}`
      : platform === 'bluesky' ? `https://bsky.app/profile/${username}.bsky.social`
      : platform === 'linkedin' ? `https://www.linkedin.com/in/${username}`
      : `https://www.${platform}.com/${username}`;
    // A fixed past date per account, so it reads the same on every start.
    const created = iso(Date.UTC(2024, 0, 1) + (hashInt(seed) % 365) * 86_400_000);
    return {
      platform,
      id,
      displayName: `${capitalise(handleOf(profile))} on ${capitalise(platform)}`,
      username,
      profileUrl,
      userImage: `https://api.dicebear.com/9.x/avataaars/png?seed=${encodeURIComponent(username)}`,
      created,
    };
  }

  const X_APP_MESSAGE = 'X/Twitter requires your own X app: send X-Twitter-OAuth1-Api-Key and X-Twitter-OAuth1-Api-Secret.';

  function networkCopy(profile: StoredProfile, post: StoredPost, platform: string): { id: string; postUrl: string } {
    const copy = networkPost(platform, `${post.id}:${platform}`, accountOf(profile, platform));
    return { id: copy.id, postUrl: copy.url };
  }

  // ----------------------------------------------------------------------------- lifecycle

  /**
   * Moves a post along the sandbox clock: a due post goes out to each network (failures per
   * platform); a copy on a network that publishes asynchronously stays `id: "pending"` for
   * `publishDelayMs`, then gets its id and URL, or fails (an injected failure is read then).
   */
  function settle(post: StoredPost): StoredPost {
    if (post.status === 'pending' && post.publishAt !== null && clock.now() >= post.publishAt) publish(post, post.publishAt);
    for (const [platform, readyAt] of Object.entries(post.processing ?? {})) {
      if (clock.now() < readyAt) continue;
      delete post.processing![platform];
      const copy = post.postIds.find((c) => c.platform === platform);
      const failure = failing.get(platform);
      if (failure) {
        post.postIds = post.postIds.filter((c) => c !== copy);
        post.errors.push({ action: 'post', status: 'error', code: failure.code, message: failure.message, platform });
        post.status = 'error';
      } else if (copy) {
        Object.assign(copy, networkCopy(profiles.get(post.profile)!, post, platform));
      }
      dirty = true;
    }
    return post;
  }

  function publish(post: StoredPost, at: number): void {
    post.postIds = [];
    post.errors = [];
    post.processing = {};
    for (const platform of post.platforms) sendCopy(post, platform, at);
    post.status = post.errors.length > 0 ? 'error' : 'success';
    post.publishedAt = at;
    post.publishAt = null;
    dirty = true;
  }

  /** One network's copy goes out (or fails) at `at`. */
  function sendCopy(post: StoredPost, platform: string, at: number): void {
    const profile = profiles.get(post.profile)!;
    const failure = failing.get(platform);
    const fail = (code: number, message: string) => post.errors.push({ action: 'post', status: 'error', code, message, platform });
    if (!profile.platforms.includes(platform)) fail(CODES.notLinked, `${capitalise(platform)} is no longer linked to this profile.`);
    else if (platform === 'twitter' && !post.xApp) fail(CODES.xAppMissing, X_APP_MESSAGE);
    else if (!post.mediaOk) fail(CODES.mediaUnreachable, 'The media URL could not be retrieved at publish time.');
    else if (PROCESSED_LATER.has(platform)) {
      post.postIds.push({ platform, status: 'success', id: 'pending' });
      (post.processing ??= {})[platform] = at + publishDelayMs;
    } else if (failure) fail(failure.code, failure.message);
    else post.postIds.push({ platform, status: 'success', ...networkCopy(profile, post, platform) });
  }

  /** PUT /post/retry: a failed post's failed networks are tried again, with this request's X app. */
  function retryPost(profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): SandboxResponse {
    if (typeof body.id !== 'string' || body.id === '') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'retry' });
    const post = findPost(profile, body.id);
    if (!post) return error(404, CODES.notFound, `Post ID not found: ${body.id}`, { action: 'retry' });
    if (post.status !== 'error') {
      return error(400, CODES.badRequest, `Only a post in status "error" can be retried (this one is "${post.status}").`, { action: 'retry', id: post.id });
    }
    const failed = post.errors.map((e) => e.platform);
    post.errors = [];
    post.xApp = xApp;
    for (const platform of failed) sendCopy(post, platform, clock.now());
    post.status = post.errors.length > 0 ? 'error' : 'success';
    dirty = true;
    return createdAnswer(post);
  }

  function view(post: StoredPost): ProviderAPostView {
    settle(post);
    const profile = profiles.get(post.profile)!;
    return {
      id: post.id,
      status: post.status,
      post: post.post,
      platforms: [...post.platforms],
      mediaUrls: [...post.mediaUrls],
      postIds: post.postIds.map((p) => ({ ...p })),
      errors: post.errors.map((e) => ({ ...e })),
      scheduleDate: post.scheduleDate === null ? null : iso(post.scheduleDate),
      created: iso(post.created),
      type: post.scheduleDate === null ? 'now' : 'scheduled',
      requiresApproval: post.requiresApproval,
      approved: post.approved,
      refId: refIdOf(profile),
      profileTitle: profile.profileKey ? `Profile ${handleOf(profile)}` : 'Primary Profile',
    };
  }

  const refIdOf = (profile: StoredProfile) => hashToken(`ref:${profile.key}`, 40).toLowerCase();

  function createdAnswer(post: StoredPost): SandboxResponse {
    const v = view(post);
    // A post sent now is answered with its outcome per network (an asynchronous network's copy with
    // id "pending"); a scheduled one with "scheduled"; a held one with "awaiting approval".
    const status = v.status === 'pending' ? 'scheduled' : v.status;
    return {
      status: status === 'error' ? 400 : 200,
      body: {
        status,
        id: v.id,
        refId: v.refId,
        post: v.post,
        platforms: v.platforms,
        postIds: v.postIds,
        errors: v.errors,
        scheduleDate: v.scheduleDate,
        type: v.type,
        ...(post.requiresApproval ? { requiresApproval: true } : {}),
      },
    };
  }

  // ----------------------------------------------------------------------------- handlers

  async function createPost(profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): Promise<SandboxResponse> {
    const idemKey = body.idempotencyKey;
    if (idemKey !== undefined && (typeof idemKey !== 'string' || idemKey.length === 0 || idemKey.length > 255)) {
      return error(400, CODES.badRequest, 'idempotencyKey must be a string of 1 to 255 characters.', { action: 'post' });
    }
    if (typeof idemKey === 'string') {
      const existing = posts.get(profile.idempotency[idemKey] ?? '');
      if (existing) return createdAnswer(existing);
    }

    if (typeof body.post !== 'string') return error(400, CODES.badRequest, 'Missing or invalid parameter: post (a string, "" allowed).', { action: 'post' });
    let platforms: string[];
    if (body.platforms === 'all') platforms = [...profile.platforms];
    else if (Array.isArray(body.platforms) && body.platforms.length > 0 && body.platforms.every((p) => typeof p === 'string')) platforms = [...new Set(body.platforms as string[])];
    else return error(400, CODES.badRequest, 'Missing or invalid parameter: platforms (a non-empty array of platform names, or "all").', { action: 'post' });
    const unknown = platforms.filter((p) => !(PROVIDER_A_PLATFORMS as readonly string[]).includes(p));
    if (unknown.length > 0) return error(400, CODES.badRequest, `Unknown platform: ${unknown.join(', ')}.`, { action: 'post' });
    if (platforms.length === 0) return error(400, CODES.notLinked, 'No social networks are linked to this profile.', { action: 'post' });
    const notLinked = platforms.filter((p) => !profile.platforms.includes(p));
    if (notLinked.length > 0) {
      return error(400, CODES.notLinked, `Not linked: ${notLinked.join(', ')}. Link the account in the dashboard first.`, {
        action: 'post',
        errors: notLinked.map((platform) => ({ action: 'post', status: 'error', code: CODES.notLinked, message: `${capitalise(platform)} is not linked.`, platform })),
      });
    }

    const mediaUrls = body.mediaUrls ?? [];
    if (!Array.isArray(mediaUrls) || !mediaUrls.every((u) => typeof u === 'string')) return error(400, CODES.badRequest, 'mediaUrls must be an array of URL strings.', { action: 'post' });
    const badUrl = (mediaUrls as string[]).find((u) => !isAllowedMediaUrl(u));
    if (badUrl !== undefined) return error(400, CODES.badRequest, `mediaUrls must be https URLs (plain http only on loopback in the sandbox): ${badUrl}`, { action: 'post' });
    if (body.isVideo !== undefined && typeof body.isVideo !== 'boolean') return error(400, CODES.badRequest, 'isVideo must be a boolean.', { action: 'post' });
    if (body.requiresApproval !== undefined && typeof body.requiresApproval !== 'boolean') return error(400, CODES.badRequest, 'requiresApproval must be a boolean.', { action: 'post' });

    let scheduleDate: number | null = null;
    if (body.scheduleDate !== undefined && body.scheduleDate !== null) {
      const parsed = typeof body.scheduleDate === 'string' && /Z$/.test(body.scheduleDate) ? parseIsoDate(body.scheduleDate) : null;
      if (parsed === null) return error(400, CODES.badRequest, 'scheduleDate must be an ISO-8601 UTC date-time, e.g. 2026-07-08T12:30:00Z.', { action: 'post' });
      if (parsed <= clock.now()) return error(400, CODES.scheduleInPast, `scheduleDate ${body.scheduleDate} is not in the future.`, { action: 'post' });
      scheduleDate = parsed;
    }

    for (const platform of platforms) {
      if (NEEDS_MEDIA.has(platform) && mediaUrls.length === 0) return error(400, CODES.badRequest, `${capitalise(platform)} requires a video or image in mediaUrls.`, { action: 'post', platform });
      const limit = TEXT_LIMITS[platform];
      if (limit !== undefined && body.post.length > limit) {
        return error(400, CODES.textTooLong, `The post is ${body.post.length} characters; ${capitalise(platform)} allows ${limit}.`, { action: 'post', platform });
      }
    }
    if (platforms.includes('youtube')) {
      const title = isRecord(body.youTubeOptions) ? body.youTubeOptions.title : undefined;
      if (typeof title !== 'string' || title.trim() === '' || title.length > 100) {
        return error(400, CODES.badRequest, 'youTubeOptions.title (1 to 100 characters) is required when posting to YouTube.', { action: 'post', platform: 'youtube' });
      }
    }

    const mediaOk = true;
    if (options.checkMedia) {
      for (const url of mediaUrls as string[]) {
        if (!(await mediaReachable(url))) return error(400, CODES.mediaUnreachable, `The media URL could not be retrieved: ${url}`, { action: 'post' });
      }
    }
    // The check awaited: a concurrent retry with the same key may have created the post meanwhile.
    if (typeof idemKey === 'string') {
      const existing = posts.get(profile.idempotency[idemKey] ?? '');
      if (existing) return createdAnswer(existing);
    }

    const now = clock.now();
    const requiresApproval = body.requiresApproval === true;
    const post: StoredPost = {
      id: randomToken(20),
      profile: profile.key,
      post: body.post,
      platforms,
      mediaUrls: [...(mediaUrls as string[])],
      isVideo: body.isVideo === true,
      scheduleDate,
      requiresApproval,
      approved: false,
      status: requiresApproval ? 'awaiting approval' : 'pending',
      created: now,
      publishAt: requiresApproval ? null : (scheduleDate ?? now),
      publishedAt: null,
      postIds: [],
      errors: [],
      deletedAt: {},
      mediaOk,
      xApp,
    };
    posts.set(post.id, post);
    if (typeof idemKey === 'string') profile.idempotency[idemKey] = post.id;
    dirty = true;
    return createdAnswer(post);
  }

  function findPost(profile: StoredProfile, id: unknown): StoredPost | undefined {
    if (typeof id !== 'string') return undefined;
    const post = posts.get(id);
    return post && post.profile === profile.key ? settle(post) : undefined;
  }

  function patchPost(profile: StoredProfile, body: Record<string, unknown>): SandboxResponse {
    if (typeof body.id !== 'string') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'update' });
    const post = findPost(profile, body.id);
    if (!post) return error(404, CODES.notFound, `Post ID not found: ${body.id}`, { action: 'update' });
    const notSent = post.status === 'pending' || post.status === 'awaiting approval';
    const out: Record<string, unknown> = { status: 'success', id: post.id };
    if (body.scheduleDate !== undefined || body.post !== undefined) {
      if (!notSent) return error(400, CODES.badRequest, `A post in status "${post.status}" can no longer be edited.`, { action: 'update' });
      if (body.post !== undefined) {
        if (typeof body.post !== 'string') return error(400, CODES.badRequest, 'post must be a string.', { action: 'update' });
        post.post = body.post;
      }
      if (body.scheduleDate !== undefined) {
        const parsed = typeof body.scheduleDate === 'string' && /Z$/.test(body.scheduleDate) ? parseIsoDate(body.scheduleDate) : null;
        if (parsed === null) return error(400, CODES.badRequest, 'scheduleDate must be an ISO-8601 UTC date-time.', { action: 'update' });
        if (parsed <= clock.now()) return error(400, CODES.scheduleInPast, `scheduleDate ${body.scheduleDate} is not in the future.`, { action: 'update' });
        post.scheduleDate = parsed;
        if (post.status === 'pending') post.publishAt = parsed;
      }
      dirty = true;
    }
    if (body.approved !== undefined) {
      if (body.approved !== true) return error(400, CODES.approval, 'approved can only be set to true.', { action: 'update' });
      if (post.status !== 'awaiting approval') return error(400, CODES.approval, `The post is not awaiting approval (status "${post.status}").`, { action: 'update' });
      const now = clock.now();
      post.approved = true;
      post.status = 'pending';
      post.publishAt = post.scheduleDate !== null && post.scheduleDate > now ? post.scheduleDate : now;
      out.approved = true;
      dirty = true;
      settle(post);
    }
    return { status: 200, body: out };
  }

  /** One id of a DELETE: what it did, as Ayrshare answers it. */
  function deleteOne(profile: StoredProfile, id: unknown, manual: boolean, xApp: boolean): SandboxResponse {
    if (typeof id !== 'string' || id === '') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'delete' });
    const post = findPost(profile, id);
    if (!post) return error(404, CODES.notFound, `Post ID not found: ${id}`, { action: 'delete' });
    if (post.status === 'deleted') return error(400, CODES.alreadyDeleted, 'The post has already been deleted.', { action: 'delete', id });
    const now = clock.now();
    if (manual || post.status === 'pending' || post.status === 'awaiting approval' || post.postIds.every((p) => p.status === 'deleted')) {
      // Not sent (cancelled), nothing left on any network, or marked deleted in Ayrshare only.
      post.status = 'deleted';
      post.publishAt = null;
      dirty = true;
      return { status: 200, body: { status: 'success', id: post.id, action: 'delete', ...(manual ? { markManualDeleted: true } : {}) } };
    }
    const out: Record<string, unknown> = { id: post.id };
    const errors: ProviderAError[] = [];
    let removed = 0;
    for (const copy of post.postIds) {
      if (copy.status === 'deleted') continue;
      if (copy.platform === 'twitter' && !xApp) {
        errors.push({ action: 'delete', status: 'error', code: CODES.xAppMissing, message: X_APP_MESSAGE, platform: copy.platform });
        out[copy.platform] = { action: 'delete', status: 'error', code: CODES.xAppMissing, message: X_APP_MESSAGE, id: copy.id };
      } else if ((PROVIDER_A_UNDELETABLE as readonly string[]).includes(copy.platform)) {
        const e: ProviderAError = {
          action: 'delete',
          status: 'error',
          code: CODES.deleteUnsupported,
          message: `${capitalise(copy.platform)} does not support deleting published posts through its API. Delete it in the ${capitalise(copy.platform)} app.`,
          platform: copy.platform,
        };
        errors.push(e);
        out[copy.platform] = { action: 'delete', status: 'error', code: e.code, message: e.message, id: copy.id };
      } else {
        copy.status = 'deleted';
        post.deletedAt[copy.platform] = now;
        removed++;
        out[copy.platform] = { action: 'delete', status: 'success', id: copy.id };
      }
    }
    if (post.postIds.every((p) => p.status === 'deleted')) post.status = 'deleted';
    dirty = true;
    if (errors.length === 0) return { status: 200, body: { ...out, status: 'success' } };
    // Something was removed: the request did its job where it could (200, errors listed); nothing was: 400.
    return { status: removed > 0 ? 200 : 400, body: { ...out, status: 'error', errors } };
  }

  function deletePost(profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): SandboxResponse {
    const manual = body.markManualDeleted === true;
    if (body.deleteAllScheduled === true) {
      let deleted = 0;
      for (const post of posts.values()) {
        if (post.profile !== profile.key) continue;
        settle(post);
        if (post.status === 'pending' || post.status === 'awaiting approval') {
          post.status = 'deleted';
          post.publishAt = null;
          deleted++;
        }
      }
      dirty = true;
      return { status: 200, body: { status: 'success', action: 'delete', deleted } };
    }
    if (body.bulk !== undefined) {
      if (!Array.isArray(body.bulk) || body.bulk.length === 0) return error(400, CODES.badRequest, 'bulk must be a non-empty array of post IDs.', { action: 'delete' });
      const results = body.bulk.map((id) => deleteOne(profile, id, manual, xApp));
      const ok = results.every((r) => r.status === 200);
      return { status: ok ? 200 : 400, body: { status: ok ? 'success' : 'error', bulk: results.map((r) => r.body) } };
    }
    return deleteOne(profile, body.id, manual, xApp);
  }

  function history(profile: StoredProfile, query: URLSearchParams): SandboxResponse {
    const int = (name: string, fallback: number, min: number, max: number): number | null => {
      const raw = query.get(name);
      if (raw === null || raw === '') return fallback;
      if (!/^\d+$/.test(raw)) return null;
      const n = Number(raw);
      return n >= min && n <= max ? n : null;
    };
    const lastDays = int('lastDays', 30, 0, 100_000);
    const limit = int('limit', 25, 1, 1000);
    const lastRecords = int('lastRecords', 0, 1, 1000);
    if (lastRecords === null) return error(400, CODES.badRequest, 'lastRecords must be an integer from 1 to 1000.', { action: 'history' });
    if (lastDays === null) return error(400, CODES.badRequest, 'lastDays must be a non-negative integer (0 = all).', { action: 'history' });
    if (limit === null) return error(400, CODES.badRequest, 'limit must be an integer from 1 to 1000.', { action: 'history' });
    const status = query.get('status');
    if (status !== null && !(POST_STATUSES as readonly string[]).includes(status)) return error(400, CODES.badRequest, `Unknown status: ${status}.`, { action: 'history' });
    const type = query.get('type');
    if (type !== null && type !== 'immediate' && type !== 'scheduled') return error(400, CODES.badRequest, 'type must be immediate or scheduled.', { action: 'history' });
    const platforms = query.get('platforms')?.split(',').map((p) => p.trim()).filter(Boolean);
    const now = clock.now();
    // lastRecords (the newest N) replaces the day window; the window counts from when a post went
    // out (or is due to), not from when it was created.
    const since = lastRecords > 0 || lastDays === 0 ? Number.NEGATIVE_INFINITY : now - lastDays * 86_400_000;
    const found = [...posts.values()]
      .filter((p) => p.profile === profile.key)
      .map(settle)
      .filter((p) => publishDateOf(p) >= since)
      .filter((p) => (status ? p.status === status : p.status !== 'deleted'))
      .filter((p) => !type || (type === 'scheduled') === (p.scheduleDate !== null))
      .filter((p) => !platforms || p.platforms.some((x) => platforms.includes(x)))
      .sort((a, b) => publishDateOf(b) - publishDateOf(a) || (a.id < b.id ? 1 : -1))
      .slice(0, lastRecords > 0 ? lastRecords : limit)
      .map(view);
    return { status: 200, body: { history: found, count: found.length, refId: refIdOf(profile), lastUpdated: iso(now), nextUpdate: iso(now + 60_000) } };
  }

  const publishDateOf = (post: StoredPost) => post.publishedAt ?? post.scheduleDate ?? post.created;

  /** GET /history/:platform: what the network itself shows of this profile (published copies only). */
  function platformHistory(profile: StoredProfile, platform: string, xApp: boolean): SandboxResponse {
    if (!profile.platforms.includes(platform)) return error(400, CODES.notLinked, `${capitalise(platform)} is not linked.`, { action: 'history', platform });
    if (platform === 'twitter' && !xApp) return error(400, CODES.xAppMissing, X_APP_MESSAGE, { action: 'history', platform });
    const now = clock.now();
    const copies = [...posts.values()]
      .filter((p) => p.profile === profile.key)
      .map(settle)
      .flatMap((p) =>
        p.postIds
          .filter((c) => c.platform === platform && c.status === 'success' && c.id !== 'pending')
          .map((c) => ({ id: c.id, post: p.post, postUrl: c.postUrl, created: iso(p.publishedAt!), ayrshareId: p.id })),
      )
      .sort((x, y) => (x.created < y.created ? 1 : -1));
    return { status: 200, body: { status: 'success', platform, posts: copies, lastUpdated: iso(now), nextUpdate: iso(now + 60_000) } };
  }

  function metricsOf(platform: string, post: StoredPost): Record<string, unknown> {
    const until = Math.min(clock.now(), post.deletedAt[platform] ?? Number.POSITIVE_INFINITY);
    const m = engagement(`${post.id}:${platform}`, post.publishedAt!, until);
    switch (platform) {
      case 'tiktok':
        return { videoViews: m.views, likes: m.likes, comments: m.comments, shares: m.shares, reach: m.reach };
      case 'instagram':
        return { views: m.views, likeCount: m.likes, commentsCount: m.comments, sharesCount: m.shares, reachCount: m.reach, savedCount: m.saves };
      case 'youtube':
        return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares, dislikes: Math.floor(m.likes * 0.03) };
      case 'facebook': {
        const love = Math.floor(m.likes * 0.2);
        return { videoViews: m.views, reactions: { like: m.likes - love, love, total: m.likes }, commentCount: m.comments, sharesCount: m.shares, impressionsUnique: m.reach };
      }
      case 'twitter':
        return { impressionCount: m.views, likeCount: m.likes, replyCount: m.comments, retweetCount: m.shares };
      default:
        return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares };
    }
  }

  function postAnalytics(profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): SandboxResponse {
    if (typeof body.id !== 'string' || body.id === '') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'analytics' });
    let filter: string[] | undefined;
    if (body.platforms !== undefined) {
      if (!Array.isArray(body.platforms) || !body.platforms.every((p) => typeof p === 'string')) return error(400, CODES.badRequest, 'platforms must be an array of platform names.', { action: 'analytics' });
      filter = body.platforms as string[];
    }
    let post: StoredPost | undefined;
    if (body.searchPlatformId === true) {
      if (!filter || filter.length !== 1) return error(400, CODES.badRequest, 'searchPlatformId needs exactly one platform in platforms.', { action: 'analytics' });
      post = [...posts.values()].filter((p) => p.profile === profile.key).map(settle).find((p) => p.postIds.some((c) => c.platform === filter![0] && c.id === body.id));
    } else {
      post = findPost(profile, body.id);
    }
    if (!post) return error(404, CODES.notFound, `Post ID not found: ${body.id}`, { action: 'analytics' });
    const copies = post.postIds.filter((c) => (!filter || filter.includes(c.platform)) && c.id !== 'pending');
    if (post.publishedAt === null || copies.length === 0) return error(400, CODES.notPublished, 'No published post to get analytics for (not sent yet, or failed everywhere).', { action: 'analytics', id: post.id });
    const now = clock.now();
    const out: Record<string, unknown> = { status: 'success', id: post.id };
    for (const copy of copies) {
      out[copy.platform] =
        copy.status === 'deleted'
          ? { status: 'error', code: CODES.copyDeleted, message: `The post was deleted on ${capitalise(copy.platform)}.`, id: copy.id }
          : copy.platform === 'twitter' && !xApp
          ? { status: 'error', code: CODES.xAppMissing, message: X_APP_MESSAGE, id: copy.id }
          : { id: copy.id, postUrl: copy.postUrl, analytics: metricsOf(copy.platform, post), lastUpdated: iso(now), nextUpdate: iso(now + 10 * 60_000) };
    }
    return { status: 200, body: out };
  }

  function socialAnalytics(profile: StoredProfile, body: Record<string, unknown>): SandboxResponse {
    if (!Array.isArray(body.platforms) || body.platforms.length === 0 || !body.platforms.every((p) => typeof p === 'string')) {
      return error(400, CODES.badRequest, 'platforms must be a non-empty array of platform names.', { action: 'analytics' });
    }
    const out: Record<string, unknown> = { status: 'success' };
    const mine = [...posts.values()].filter((p) => p.profile === profile.key).map(settle);
    for (const platform of body.platforms as string[]) {
      if (!profile.platforms.includes(platform)) {
        out[platform] = { status: 'error', code: CODES.notLinked, message: `${capitalise(platform)} is not linked.` };
        continue;
      }
      const published = mine.filter((p) => p.postIds.some((c) => c.platform === platform && c.status === 'success'));
      const views = published.reduce((sum, p) => sum + engagement(`${p.id}:${platform}`, p.publishedAt!, clock.now()).views, 0);
      const likes = published.reduce((sum, p) => sum + engagement(`${p.id}:${platform}`, p.publishedAt!, clock.now()).likes, 0);
      const followers = 100 + (hashInt(`${profile.key}:${platform}:followers`) % 5000) + Math.floor(views / 40);
      const analytics =
        platform === 'tiktok' ? { followerCount: followers, videoCount: published.length, likeCount: likes }
        : platform === 'instagram' ? { followersCount: followers, mediaCount: published.length }
        : platform === 'youtube' ? { subscriberCount: followers, videoCount: published.length, viewCount: views }
        : platform === 'facebook' ? { followersCount: followers, fanCount: Math.floor(followers * 0.9) }
        : { followers };
      out[platform] = { analytics };
    }
    return { status: 200, body: out };
  }

  function user(profile: StoredProfile): SandboxResponse {
    const body: Record<string, unknown> = {
      displayNames: profile.platforms.map((p) => accountOf(profile, p)),
      title: profile.profileKey ? `Profile ${handleOf(profile)}` : 'Primary Profile',
      refId: refIdOf(profile),
    };
    if (profile.platforms.length > 0) body.activeSocialAccounts = [...profile.platforms];
    return { status: 200, body };
  }

  async function handle(req: SandboxRequest): Promise<SandboxResponse> {
    const name = findRoute(ROUTES, req.method, req.path);
    if (!name) {
      const known = ROUTES.some(([, pattern]) => pattern.test(req.path));
      return known ? error(405, CODES.methodNotAllowed, `${req.method} is not supported on ${req.path}.`) : error(404, CODES.unknownEndpoint, `Unknown endpoint: ${req.method} ${req.path}`);
    }
    const apiKey = bearerToken(req.headers);
    if (!isSandboxKey(apiKey, PROVIDER_A_KEY_PREFIX)) {
      return { status: 401, body: { status: 'error', code: CODES.badKey, message: apiKey ? 'API Key not valid.' : 'Missing API Key: send Authorization: Bearer <API Key>.' } };
    }
    const rawProfileKey = req.headers['profile-key'];
    const profileKey = typeof rawProfileKey === 'string' && rawProfileKey.trim() !== '' ? rawProfileKey.trim() : null;
    const profile = profileOf(apiKey, profileKey);
    const xApp = X_APP_HEADERS.every((name) => {
      const value = req.headers[name];
      return typeof value === 'string' && value.trim() !== '';
    });

    if (name.startsWith('GET')) {
      if (name === 'GET /api/user') return user(profile);
      if (name === 'GET /api/history') return history(profile, req.url.searchParams);
      const id = decodeURIComponent(req.path.replace(/\/$/, '').split('/').pop()!);
      if (name === 'GET /api/history/:platform') return platformHistory(profile, id, xApp);
      const post = findPost(profile, id);
      return post ? { status: 200, body: view(post) } : error(404, CODES.notFound, `Post ID not found: ${id}`, { action: 'get' });
    }
    if (req.json === INVALID_JSON) return error(400, CODES.badRequest, 'The body is not valid JSON.');
    const body = isRecord(req.json) ? req.json : req.json === undefined ? {} : null;
    if (!body) return error(400, CODES.badRequest, 'The body must be a JSON object.');
    switch (name) {
      case 'POST /api/post':
        return createPost(profile, body, xApp);
      case 'PATCH /api/post':
      case 'PUT /api/post':
        return patchPost(profile, body);
      case 'PUT /api/post/retry':
        return retryPost(profile, body, xApp);
      case 'DELETE /api/post':
        return deletePost(profile, body, xApp);
      case 'POST /api/analytics/post':
        return postAnalytics(profile, body, xApp);
      default:
        return socialAnalytics(profile, body);
    }
  }

  const server = await startSandboxServer({
    port: options.port,
    basePath: '/api',
    clock,
    flavour: {
      routeOf: (method, path) => findRoute(ROUTES, method, path),
      unavailable: () => ({ status: 'error', code: 503, message: 'Service temporarily unavailable. Please try again.' }),
      rateLimited: (s) => ({ status: 'error', code: 429, message: `Too many requests. Retry after ${s} seconds.` }),
      internalError: () => ({ status: 'error', code: 500, message: 'Internal server error.' }),
      // Valid JSON, off the contract: fields of the wrong types.
      wrongShape: (path) =>
        path.startsWith('/api/history') ? { history: 'unavailable' }
        : path.startsWith('/api/user') ? { activeSocialAccounts: 'tiktok', displayNames: { platform: 'tiktok' } }
        : { status: 200, id: 42, postIds: 'none', errors: 'none' },
    },
    handle,
    afterRequest: persist,
    onError: (e) => log(`provider_a sandbox: ${String(e)}`),
  });

  function persist(): void {
    if (!store || !dirty) return;
    dirty = false;
    store.save({ version: 1, profiles: [...profiles.values()], posts: [...posts.values()] });
  }

  function assertPlatform(platform: string): void {
    if (!(PROVIDER_A_PLATFORMS as readonly string[]).includes(platform)) throw new Error(`provider_a sandbox: unknown platform "${platform}" (Ayrshare names: ${PROVIDER_A_PLATFORMS.join(', ')})`);
  }

  /** Posts due before a change of the platform flags publish with the flags they were due under. */
  const settleAll = () => {
    for (const post of posts.values()) settle(post);
  };

  const control: ProviderASandboxControl = {
    ...sandboxControl({
      server,
      clock,
      failing,
      failure: (platform, given) => ({
        code: given.code ?? CODES.injectedFailure,
        message: given.message ?? `${capitalise(platform)} Error: the network rejected the post (sandbox: failPlatform).`,
      }),
      assertPlatform,
      settleAll,
      posts,
      view,
      persist,
    }),
    linkPlatforms(apiKey, platforms, profileKey = null) {
      platforms.forEach(assertPlatform);
      settleAll();
      profileOf(apiKey, profileKey).platforms = [...new Set(platforms)];
      dirty = true;
      persist();
    },
  };

  return sandboxOf(server, control, persist);
}
