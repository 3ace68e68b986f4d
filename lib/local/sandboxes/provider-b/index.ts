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
 *                                          on failure), media}], meta}
 *   GET    /v1/social-post-results/{id}   one result; 404 "Result not found"
 *   GET    /v1/social-account-feeds/{account_id}  ?expand=metrics &limit (50, max 100) &cursor
 *                                          &social_post_id &platform_post_id &external_post_id
 *                                          → {data:[{platform, social_account_id, platform_account_id,
 *                                          platform_post_id, platform_url, caption, media, posted_at,
 *                                          social_post_id, social_post_result_id, external_post_id,
 *                                          metrics?}], meta:{cursor (of the next page, or ""), limit, next (URL
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
 * Faults, counters and the clock: see sandbox-kit.ts and `ProviderBSandboxControl` (contract.ts).
 *
 * This module starts the sandbox and routes each request; the parts it routes to take the sandbox's
 * state (state.ts) as their first argument: identities.ts (keys and their accounts), lifecycle.ts
 * (settling posts into results, the views), accounts.ts, posts.ts, results.ts and feeds.ts, with
 * listing.ts for the list endpoints' paging.
 */
import { bearerToken, findRoute, isSandboxKey, sandboxControl, sandboxOf, startSandboxServer, type SandboxRequest, type SandboxResponse } from '../sandbox-kit';
import { disconnectAccount, getAccount, listAccounts } from './accounts';
import { PROVIDER_B_KEY_PREFIX, PROVIDER_B_PLATFORMS, ROUTES, fail, type ProviderBSandbox, type ProviderBSandboxControl, type ProviderBSandboxOptions } from './contract';
import { feed } from './feeds';
import { keyOf } from './identities';
import { findPost, publicResult, settle, settleAll, view } from './lifecycle';
import { createPost, deletePost, listPosts, updatePost } from './posts';
import { getResult, listResults } from './results';
import { createProviderBState, persist, type ProviderBState } from './state';

export { PROVIDER_B_KEY_PREFIX, type ProviderBSandbox, type ProviderBSandboxOptions } from './contract';

export async function startProviderBSandbox(options: ProviderBSandboxOptions = {}): Promise<ProviderBSandbox> {
  for (const a of options.defaultAccounts ?? []) assertPlatform(a.platform);
  const s = createProviderBState(options);
  const log = options.log ?? (() => undefined);

  const server = await startSandboxServer({
    port: options.port,
    clock: s.clock,
    flavour: {
      routeOf: (method, path) => findRoute(ROUTES, method, path),
      unavailable: () => ({ statusCode: 503, message: 'Service Unavailable' }),
      rateLimited: () => ({ statusCode: 429, message: 'Too Many Requests' }),
      internalError: () => ({ statusCode: 500, message: 'Internal Server Error' }),
      wrongShape: (path) => (/^\/v1\/social-(accounts|post-results|account-feeds)|^\/v1\/social-posts\/?$/.test(path) ? { data: { items: 'unexpected' }, meta: null } : { id: 42, status: ['unexpected'] }),
    },
    handle: (req) => handle(s, req),
    afterRequest: () => persist(s),
    onError: (e) => log(`provider_b sandbox: ${String(e)}`),
  });
  s.origin = server.origin;

  /** A change made through the control is saved at once (no request follows to save it). */
  const changed = () => {
    s.dirty = true;
    persist(s);
  };
  const accountOf = (apiKey: string, accountIdOrPlatform: string) => {
    const account = keyOf(s, apiKey).accounts.find((a) => a.id === accountIdOrPlatform || a.platform === accountIdOrPlatform);
    if (!account) throw new Error(`provider_b sandbox: no account ${accountIdOrPlatform} for that key`);
    return account;
  };
  const control: ProviderBSandboxControl = {
    ...sandboxControl({
      server,
      clock: s.clock,
      failing: s.failing,
      failure: (platform, given) => given.message ?? `${platform} rejected the post (sandbox: failPlatform).`,
      assertPlatform,
      settleAll: () => settleAll(s),
      posts: s.posts,
      view: (post) => view(s, post),
      persist: () => persist(s),
    }),
    accounts: (apiKey) => keyOf(s, apiKey).accounts.map((a) => ({ ...a })),
    setAccountStatus(apiKey, accountIdOrPlatform, status) {
      settleAll(s);
      accountOf(apiKey, accountIdOrPlatform).status = status;
      changed();
    },
    failFeed(apiKey, accountIdOrPlatform, failing = true) {
      const owner = keyOf(s, apiKey);
      const account = accountOf(apiKey, accountIdOrPlatform);
      const others = (owner.failingFeeds ?? []).filter((id) => id !== account.id);
      owner.failingFeeds = failing ? [...others, account.id] : others;
      changed();
    },
    setLegacyPlan(apiKey, legacy) {
      keyOf(s, apiKey).legacyPlan = legacy;
      changed();
    },
    results(postId) {
      const post = s.posts.get(postId);
      if (post) settle(s, post);
      persist(s);
      return [...s.results.values()].filter((r) => r.post_id === postId).map(publicResult);
    },
  };

  return sandboxOf(server, control, () => persist(s));
}

function assertPlatform(platform: string): void {
  if (!(PROVIDER_B_PLATFORMS as readonly string[]).includes(platform)) throw new Error(`provider_b sandbox: unknown platform "${platform}" (${PROVIDER_B_PLATFORMS.join(', ')})`);
}

/** The route and the key, then the part that answers. */
async function handle(s: ProviderBState, req: SandboxRequest): Promise<SandboxResponse> {
  const route = findRoute(ROUTES, req.method, req.path);
  if (!route) return { status: 404, body: { statusCode: 404, message: `Cannot ${req.method} ${req.path}`, error: 'Not Found' } };
  const apiKey = bearerToken(req.headers);
  if (!isSandboxKey(apiKey, PROVIDER_B_KEY_PREFIX)) return fail(401, 'Unauthorized');
  const owner = keyOf(s, apiKey);
  const segments = req.path.replace(/\/$/, '').split('/').map(decodeURIComponent);
  const id = segments[3] ?? '';

  switch (route) {
    case 'GET /v1/social-accounts':
      return listAccounts(s, owner, req.url);
    case 'GET /v1/social-accounts/:id':
      return getAccount(owner, id);
    case 'POST /v1/social-accounts/:id/disconnect':
      return disconnectAccount(s, owner, id);
    case 'POST /v1/social-posts':
      return createPost(s, owner, req.json);
    case 'GET /v1/social-posts':
      return listPosts(s, owner, req.url);
    case 'GET /v1/social-posts/:id': {
      const post = findPost(s, owner, id);
      return post ? { status: 200, body: view(s, post) } : fail(404, 'Post not found');
    }
    case 'PUT /v1/social-posts/:id': {
      const post = findPost(s, owner, id);
      return post ? updatePost(s, owner, post, req.json) : fail(404, 'Post not found');
    }
    case 'DELETE /v1/social-posts/:id':
      return deletePost(s, owner, id);
    case 'GET /v1/social-post-results':
      return listResults(s, owner, req.url);
    case 'GET /v1/social-post-results/:id':
      return getResult(s, owner, id);
    default:
      return feed(s, owner, id, req.url);
  }
}
