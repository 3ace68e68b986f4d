/**
 * Reading posts refreshes them: a post not yet final (FINAL_POST_STATUSES) is asked of its provider
 * and what it says is stored. When the provider cannot be asked, the stored state is answered with
 * the reason it is stale; a read never fails for provider trouble. A post gone upstream (deleted in
 * the provider's dashboard) is deleted here too.
 */
import pLimit from 'p-limit';
import { notFound } from '#domain/errors';
import { deletedResults, isFinalStatus, mergeResults, type Post, type ProviderPost } from '#domain/social-post';
import type { ProviderName } from '#domain/social';
import { isProviderError } from '#ports/social-provider';
import type { Ports } from '#ports/ports';
import { accessConnection, markConnectionError, type ConnectionAccess } from './connection-credentials';
import { logOf, type UseCaseLog } from './log';
import { connectFirst, failureSummary, reconnect } from './provider-errors';
import { postEventOf } from '#domain/webhooks';
import { raiseEvent } from './webhook-events';
import { socialRequestOf } from '#domain/test-mode';

export const REFRESH_DEADLINE_MS = 8_000;
/** A list refreshes the moving posts of its page a few at a time, within one overall deadline. */
const LIST_REFRESH_CONCURRENCY = 4;
const LIST_REFRESH_DEADLINE_MS = 10_000;

export type RefreshDeps = Pick<Ports, 'social' | 'posts' | 'connections' | 'cipher' | 'now'> & { log?: UseCaseLog };

interface Stale {
  code: string;
  message: string;
}

/** A post as the provider last confirmed it; `stale` says why it could not be asked just now. */
export interface RefreshedPost {
  post: Post;
  stale: Stale | null;
}

/** The provider refused our stored key: the connection shows it until the owner connects again. */
export async function noteAuthFailure(deps: RefreshDeps, error: unknown, access: ConnectionAccess): Promise<void> {
  if (!isProviderError(error) || error.kind !== 'auth' || access.kind === 'missing') return;
  const { account_id: accountId, provider } = access.connection;
  logOf(deps).warn('provider refused the stored key', { provider, accountId });
  await markConnectionError(deps, access.connection, {
    code: 'provider_refused_key',
    message: `${provider} refused the stored key; connect it again with PUT /social/connections/${provider}`,
  });
}

/** Asks the provider for the post's state and stores it. Never throws for provider trouble. */
export async function refreshPost(deps: RefreshDeps, post: Post, access: ConnectionAccess, deadlineMs: number): Promise<RefreshedPost> {
  if (isFinalStatus(post.status)) return { post, stale: null };
  if (access.kind === 'missing') return { post, stale: { code: 'conflict', message: connectFirst(post.provider).message } };
  if (access.kind === 'unopenable' || access.connection.status === 'error') {
    return { post, stale: { code: 'conflict', message: reconnect(post.provider).message } };
  }
  let fresh: ProviderPost;
  try {
    fresh = await deps.social(post.provider, socialRequestOf(post.account_id)).getPost(access.credentials, post.provider_post_id, { signal: AbortSignal.timeout(deadlineMs) });
  } catch (error) {
    if (isProviderError(error) && error.kind === 'not_found') {
      // Gone upstream (deleted in the provider's dashboard): so it is here.
      const gone = await deps.posts.markDeleted(post.account_id, post.id, deletedResults(post.results), deps.now());
      return { post: gone ?? post, stale: null };
    }
    await noteAuthFailure(deps, error, access);
    const stale = failureSummary(error, post.provider, 'the post');
    logOf(deps).info('post could not be refreshed; answering the stored state', { provider: post.provider, postId: post.id, reason: stale.code });
    return { post, stale };
  }
  const results = mergeResults(post.results, fresh.results);
  const now = deps.now();
  const type = fresh.status !== post.status ? postEventOf(fresh.status) : undefined;
  const event = type ? raiseEvent(type, post.account_id, { kind: 'post', id: post.id }, now) : undefined;
  const stored = await deps.posts.recordRefresh(post.account_id, post.id, { status: fresh.status, results }, now, event);
  // Deleted meanwhile (a concurrent DELETE): what is stored now is the truth.
  if (!stored) return { post: (await deps.posts.get(post.account_id, post.id)) ?? post, stale: null };
  return { post: stored, stale: null };
}

export async function requirePost(deps: Pick<Ports, 'posts'>, accountId: number, postId: number): Promise<Post> {
  const post = await deps.posts.get(accountId, postId);
  if (!post) throw notFound('Post');
  return post;
}

/** GET /social/posts/{id}: the post, refreshed when it may still change. */
export async function readPost(deps: RefreshDeps, input: { accountId: number; postId: number }): Promise<RefreshedPost> {
  const post = await requirePost(deps, input.accountId, input.postId);
  if (isFinalStatus(post.status)) return { post, stale: null };
  return refreshPost(deps, post, await accessConnection(deps, post.account_id, post.provider), REFRESH_DEADLINE_MS);
}

/**
 * Whether a listed post may have moved on its own: publishing, or scheduled and its time has come
 * (or it was sent to go out now). Drafts and posts scheduled later change only by someone's hand,
 * which GET /social/posts/{id} sees.
 */
function movingOnItsOwn(post: Post, now: number): boolean {
  if (isFinalStatus(post.status)) return false;
  if (post.status === 'draft') return false;
  // provider_a shows a post sent "now" as scheduled (pending) until it goes out.
  if (post.status === 'scheduled') return post.schedule_at === null || Date.parse(post.schedule_at) <= now;
  return true;
}

/** GET /social/posts: one page, newest first; the posts that may have moved are refreshed within one deadline. */
export async function listPosts(
  deps: RefreshDeps,
  input: { accountId: number; page: number; perPage: number },
): Promise<{ items: RefreshedPost[]; total: number }> {
  const slice = await deps.posts.list(input.accountId, input.page, input.perPage);
  const now = Date.now();
  const due = slice.items.filter((p) => movingOnItsOwn(p, deps.now().getTime()));
  const answers = new Map<number, RefreshedPost>(slice.items.map((post) => [post.id, { post, stale: null }]));
  if (due.length > 0) {
    const providers = [...new Set(due.map((p) => p.provider))];
    const access = new Map<ProviderName, ConnectionAccess>(
      await Promise.all(providers.map(async (p) => [p, await accessConnection(deps, input.accountId, p)] as const)),
    );
    const deadline = now + LIST_REFRESH_DEADLINE_MS;
    const limit = pLimit(LIST_REFRESH_CONCURRENCY);
    await Promise.all(
      due.map((post) =>
        limit(async () => {
          // Measured when its turn comes: a post still waiting when the deadline is near is answered as stored.
          const left = deadline - Date.now();
          if (left < 500) {
            answers.set(post.id, { post, stale: { code: 'upstream_unavailable', message: 'not refreshed in this listing; GET the post for its current state' } });
            return;
          }
          answers.set(post.id, await refreshPost(deps, post, access.get(post.provider)!, Math.min(REFRESH_DEADLINE_MS, left)));
        }),
      ),
    );
  }
  return { items: slice.items.map((p) => answers.get(p.id)!), total: slice.total };
}
