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
 * Faults, counters and the clock: see sandbox-kit.ts and `ProviderASandboxControl` (contract.ts).
 *
 * This module starts the sandbox and routes each request; the parts it routes to take the sandbox's
 * state (state.ts) as their first argument: identities.ts (profiles, accounts, GET /user),
 * lifecycle.ts (settling and publishing posts, the views), posts.ts (create, edit, retry, delete),
 * history.ts and analytics.ts.
 */
import { INVALID_JSON, bearerToken, findRoute, isRecord, isSandboxKey, sandboxControl, sandboxOf, startSandboxServer, type SandboxRequest, type SandboxResponse } from '../sandbox-kit';
import { postAnalytics, socialAnalytics } from './analytics';
import {
  CODES,
  PROVIDER_A_KEY_PREFIX,
  PROVIDER_A_PLATFORMS,
  ROUTES,
  X_APP_HEADERS,
  capitalise,
  error,
  type ProviderASandbox,
  type ProviderASandboxControl,
  type ProviderASandboxOptions,
} from './contract';
import { history, platformHistory } from './history';
import { profileOf, user } from './identities';
import { findPost, settleAll, view } from './lifecycle';
import { createPost, deletePost, patchPost, retryPost } from './posts';
import { createProviderAState, persist, type ProviderAState } from './state';

export { PROVIDER_A_KEY_PREFIX, type ProviderASandbox, type ProviderASandboxOptions } from './contract';

export async function startProviderASandbox(options: ProviderASandboxOptions = {}): Promise<ProviderASandbox> {
  const s = createProviderAState(options);
  const log = options.log ?? (() => undefined);
  for (const p of s.defaultPlatforms) assertPlatform(p);

  const server = await startSandboxServer({
    port: options.port,
    basePath: '/api',
    clock: s.clock,
    flavour: {
      routeOf: (method, path) => findRoute(ROUTES, method, path),
      unavailable: () => ({ status: 'error', code: 503, message: 'Service temporarily unavailable. Please try again.' }),
      rateLimited: (seconds) => ({ status: 'error', code: 429, message: `Too many requests. Retry after ${seconds} seconds.` }),
      internalError: () => ({ status: 'error', code: 500, message: 'Internal server error.' }),
      // Valid JSON, off the contract: fields of the wrong types.
      wrongShape: (path) =>
        path.startsWith('/api/history') ? { history: 'unavailable' }
        : path.startsWith('/api/user') ? { activeSocialAccounts: 'tiktok', displayNames: { platform: 'tiktok' } }
        : { status: 200, id: 42, postIds: 'none', errors: 'none' },
    },
    handle: (req) => handle(s, req),
    afterRequest: () => persist(s),
    onError: (e) => log(`provider_a sandbox: ${String(e)}`),
  });

  const control: ProviderASandboxControl = {
    ...sandboxControl({
      server,
      clock: s.clock,
      failing: s.failing,
      failure: (platform, given) => ({
        code: given.code ?? CODES.injectedFailure,
        message: given.message ?? `${capitalise(platform)} Error: the network rejected the post (sandbox: failPlatform).`,
      }),
      assertPlatform,
      settleAll: () => settleAll(s),
      posts: s.posts,
      view: (post) => view(s, post),
      persist: () => persist(s),
    }),
    linkPlatforms(apiKey, platforms, profileKey = null) {
      platforms.forEach(assertPlatform);
      settleAll(s);
      profileOf(s, apiKey, profileKey).platforms = [...new Set(platforms)];
      s.dirty = true;
      persist(s);
    },
  };

  return sandboxOf(server, control, () => persist(s));
}

function assertPlatform(platform: string): void {
  if (!(PROVIDER_A_PLATFORMS as readonly string[]).includes(platform)) throw new Error(`provider_a sandbox: unknown platform "${platform}" (Ayrshare names: ${PROVIDER_A_PLATFORMS.join(', ')})`);
}

/** The route, the key and its profile, then the part that answers. */
async function handle(s: ProviderAState, req: SandboxRequest): Promise<SandboxResponse> {
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
  const profile = profileOf(s, apiKey, profileKey);
  const xApp = X_APP_HEADERS.every((name) => {
    const value = req.headers[name];
    return typeof value === 'string' && value.trim() !== '';
  });

  if (name.startsWith('GET')) {
    if (name === 'GET /api/user') return user(profile);
    if (name === 'GET /api/history') return history(s, profile, req.url.searchParams);
    const id = decodeURIComponent(req.path.replace(/\/$/, '').split('/').pop()!);
    if (name === 'GET /api/history/:platform') return platformHistory(s, profile, id, xApp);
    const post = findPost(s, profile, id);
    return post ? { status: 200, body: view(s, post) } : error(404, CODES.notFound, `Post ID not found: ${id}`, { action: 'get' });
  }
  if (req.json === INVALID_JSON) return error(400, CODES.badRequest, 'The body is not valid JSON.');
  const body = isRecord(req.json) ? req.json : req.json === undefined ? {} : null;
  if (!body) return error(400, CODES.badRequest, 'The body must be a JSON object.');
  switch (name) {
    case 'POST /api/post':
      return createPost(s, profile, body, xApp);
    case 'PATCH /api/post':
    case 'PUT /api/post':
      return patchPost(s, profile, body);
    case 'PUT /api/post/retry':
      return retryPost(s, profile, body, xApp);
    case 'DELETE /api/post':
      return deletePost(s, profile, body, xApp);
    case 'POST /api/analytics/post':
      return postAnalytics(s, profile, body, xApp);
    default:
      return socialAnalytics(s, profile, body);
  }
}
