/**
 * Deleting a post: the provider's delete rule is applied to the post's state (refreshed first, since a
 * scheduled post may have gone out) before any upstream call, and a refusal is a 409 naming the rule.
 * The post is then deleted upstream and kept here as a record with status `deleted`. Deleting twice
 * is not an error: nothing is asked upstream again.
 */
import { conflict, notFound } from '#domain/errors';
import { deletedResults, isFinalStatus, mergeResults, type ChannelResult, type Post } from '#domain/social-post';
import { isProviderError } from '#ports/social-provider';
import type { Ports } from '#ports/ports';
import { accessConnection, usableConnection, type OpenedConnection } from './connection-credentials';
import { logOf } from './log';
import { providerFailure } from './provider-errors';
import { REFRESH_DEADLINE_MS, noteAuthFailure, refreshPost, requirePost, type RefreshDeps } from './refresh-posts';
import { socialRequestOf } from '#domain/test-mode';

const DELETE_DEADLINE_MS = 12_000;
const AFTER_DELETE_DEADLINE_MS = 5_000;

/** The post as it was deleted (or already was). */
export async function deletePost(deps: RefreshDeps, input: { accountId: number; postId: number }): Promise<Post> {
  const { accountId } = input;
  let post = await requirePost(deps, accountId, input.postId);
  if (post.status === 'deleted') return post;

  const provider = post.provider;
  const adapter = deps.social(provider, socialRequestOf(accountId));
  const access = await accessConnection(deps, accountId, provider);
  if (access.kind === 'opened' && !isFinalStatus(post.status)) {
    // The rule is judged on the state the provider has now. If the provider cannot be asked, the
    // stored state is judged; the provider enforces its own rule too.
    post = (await refreshPost(deps, post, access, REFRESH_DEADLINE_MS)).post;
    if (post.status === 'deleted') return post;
  }

  const verdict = adapter.deleteRule({ status: post.status, results: post.results.map(toChannelResult) });
  if (!verdict.allowed) throw conflict(`This ${post.status} post cannot be deleted on ${provider}: ${verdict.reason}`);
  const opened = usableConnection(access, provider);

  try {
    await adapter.deletePost(opened.credentials, post.provider_post_id, { signal: AbortSignal.timeout(DELETE_DEADLINE_MS) });
  } catch (error) {
    // Already gone upstream: the delete has nothing left to do there.
    if (!(isProviderError(error) && error.kind === 'not_found')) {
      await noteAuthFailure(deps, error, access);
      throw providerFailure(error, provider, 'the delete');
    }
  }
  const gone = await deps.posts.markDeleted(accountId, post.id, await resultsAfterDelete(deps, post, opened), deps.now());
  if (!gone) throw notFound('Post');
  logOf(deps).info('post deleted', { provider, accountId, postId: post.id });
  return gone;
}

/**
 * Per-channel results once the provider took the delete. A delete may leave copies up (provider_a
 * cannot remove published Instagram/TikTok copies), so the provider is asked what is left; when it
 * cannot say (provider_b forgets deleted posts), what was published or waiting is taken as gone.
 */
async function resultsAfterDelete(deps: Pick<Ports, 'social'>, post: Post, opened: OpenedConnection): Promise<Post['results']> {
  try {
    const after = await deps.social(post.provider, socialRequestOf(post.account_id)).getPost(opened.credentials, post.provider_post_id, { signal: AbortSignal.timeout(AFTER_DELETE_DEADLINE_MS) });
    const merged = mergeResults(post.results, after.results);
    // Whatever the provider still calls pending will never go out now.
    return merged.map((r) => (r.status === 'pending' ? { ...r, status: 'deleted' } : r));
  } catch {
    return deletedResults(post.results);
  }
}

function toChannelResult(r: Post['results'][number]): ChannelResult {
  return { channelId: r.account_id, platform: r.platform, status: r.status, url: r.url, error: r.error };
}
