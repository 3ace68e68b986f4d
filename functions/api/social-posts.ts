/**
 * Posts: a finished video handed to a connected scheduling provider, now, at a time, or as a draft
 * (API.md §4 Social publishing, DESIGN §2 and §5; README "Social publishing" has the decisions).
 *
 * - A post is stored only once its provider accepted it: every check runs first (fields, connection,
 *   video, channels, caption), the id is allocated, the provider is called with that id as its
 *   external id, and only its acceptance is written. A failed call leaves nothing behind.
 * - A post not yet final (FINAL_POST_STATUSES) is refreshed from its provider when read; when the
 *   provider cannot be asked, the stored state is answered with `stale: true` and the reason.
 * - DELETE applies the provider's delete rule to the (refreshed) state before any upstream call (409
 *   naming the rule), then deletes upstream and keeps the record with status `deleted`.
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import { readBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam, pageMeta, pageParams } from '#http/params';
import { created, deleted, ok } from '#http/respond';
import { logger } from '#functions/logger';
import { conflict, notFound } from '#domain/errors';
import {
  checkCaption,
  checkXApp,
  createPostInput,
  deletedResults,
  isFinalStatus,
  mediaUrlTtlS,
  mergeResults,
  newPost,
  pickChannels,
  postFieldsOfForm,
  postRequestOf,
  postView,
  type Post,
} from '#domain/social-post';
import { isProviderError } from '#ports/social-provider';
import type { ProviderCredentials, ProviderName } from '#domain/social';
import type { ProviderPost } from '#domain/social-post';
import { isCredentialCipherError } from '#ports/credential-cipher';
import type { Connection } from '#domain/social';
import { socialProvider } from '#adapters/social/registry';
import * as connections from '#adapters/dynamodb/connections';
import * as posts from '#adapters/dynamodb/posts';
import { getVideo } from '#adapters/dynamodb/videos';
import { playbackUrl } from '#adapters/s3/blob-store';
import { connectFirst, failureSummary, providerFailure, reconnect } from './provider-errors';

/** Deadlines keep every answer under API Gateway's 30 s, whatever the provider does. */
const CREATE_DEADLINE_MS = 20_000;
const REFRESH_DEADLINE_MS = 8_000;
const DELETE_DEADLINE_MS = 12_000;
/** A list refreshes the moving posts of its page a few at a time, within one overall deadline. */
const LIST_REFRESH_CONCURRENCY = 4;
const LIST_REFRESH_DEADLINE_MS = 10_000;

type Opened = { connection: Connection; credentials: ProviderCredentials };
type Stale = { code: string; message: string };

/**
 * The account's connection to `provider` with its key opened; `undefined` when not connected. A
 * connection whose key the provider refused, or whose sealed key cannot be opened, is a 409 reconnect.
 */
async function openConnection(accountId: number, provider: ProviderName): Promise<Opened | undefined> {
  let opened: Opened | undefined;
  try {
    opened = await connections.getConnection(accountId, provider, { credentials: true });
  } catch (error) {
    if (isCredentialCipherError(error)) throw reconnect(provider);
    throw error;
  }
  if (opened && opened.connection.status === 'error') throw reconnect(provider);
  return opened;
}

/** The provider refused our stored key: the connection shows it until the owner connects again. */
async function noteAuthFailure(error: unknown, opened: Opened): Promise<void> {
  if (!isProviderError(error) || error.kind !== 'auth') return;
  const { account_id: accountId, provider, generation } = opened.connection;
  logger.warn('provider refused the stored key', { provider, accountId });
  await connections
    .markConnectionError(accountId, provider, generation, {
      code: 'provider_refused_key',
      message: `${provider} refused the stored key; connect it again with PUT /social/connections/${provider}`,
    })
    .catch((e: unknown) => logger.error('could not mark the connection', { error: e as Error }));
}

async function readFields(request: AuthenticatedRequest): Promise<Record<string, unknown>> {
  const body = await readBody(request.event, { accept: ['json', 'form'] });
  return body.kind === 'form' ? postFieldsOfForm(body.fields) : body.fields;
}

const createPost: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const now = new Date();
  const input = postRequestOf(parseInput(createPostInput, await readFields(request), 'post'), now);
  const provider = input.provider;

  const opened = await openConnection(accountId, provider);
  if (!opened) throw connectFirst(provider);
  const video = await getVideo(accountId, input.videoId);
  if (!video) throw notFound(`video_id: Video ${input.videoId}`);
  const channels = pickChannels(provider, input.accountIds, opened.connection.channels);
  checkXApp(provider, channels, opened.credentials);
  checkCaption(input.caption, channels);

  const id = await posts.newPostId();
  // The provider may fetch the media only at the scheduled time: the URLs live until a day past it (max 7 days).
  const ttlS = mediaUrlTtlS(input.scheduleAt, now);
  const [media, poster] = await Promise.all([playbackUrl(video.key, now, ttlS), playbackUrl(video.poster_key, now, ttlS)]);

  let accepted: ProviderPost;
  try {
    accepted = await socialProvider(provider).createPost(
      opened.credentials,
      {
        caption: input.caption,
        channels,
        media: { url: media.url, thumbnailUrl: poster.url, sizeBytes: video.size_bytes, fileName: `video-${video.id}.mp4` },
        scheduleAt: input.scheduleAt,
        draft: input.draft,
        externalId: String(id),
      },
      { signal: AbortSignal.timeout(CREATE_DEADLINE_MS) },
    );
  } catch (error) {
    await noteAuthFailure(error, opened);
    logger.info('provider did not accept a post', { provider, accountId, postId: id, kind: isProviderError(error) ? error.kind : 'other' });
    throw providerFailure(error, provider, 'the post');
  }

  const post = newPost({ id, accountId, request: input, channels, accepted, now: new Date() });
  try {
    await posts.putNewPost(post);
  } catch (error) {
    // The provider has it but we could not record it: take it back where the provider's rule allows.
    logger.error('accepted post could not be stored; withdrawing it upstream', { provider, accountId, postId: id, error: error as Error });
    const adapter = socialProvider(provider);
    if (adapter.deleteRule(accepted).allowed) {
      await adapter
        .deletePost(opened.credentials, accepted.providerPostId, { signal: AbortSignal.timeout(5_000) })
        .catch((e: unknown) => logger.error('withdrawing the post failed', { provider, providerPostId: accepted.providerPostId, error: e as Error }));
    }
    throw error;
  }
  logger.info('post created', { provider, accountId, postId: id, status: post.status, channels: channels.length });
  return created(postView(post));
};

/**
 * Asks the provider for the post's state and stores it. Never throws for provider trouble: the stored
 * post comes back with the reason it is stale.
 */
async function refresh(post: Post, opened: Opened | undefined | 'unopenable', deadlineMs: number): Promise<{ post: Post; stale: Stale | null }> {
  if (isFinalStatus(post.status)) return { post, stale: null };
  if (opened === undefined) {
    return { post, stale: { code: 'conflict', message: connectFirst(post.provider).message } };
  }
  if (opened === 'unopenable' || opened.connection.status === 'error') {
    return { post, stale: { code: 'conflict', message: reconnect(post.provider).message } };
  }
  let fresh: ProviderPost;
  try {
    fresh = await socialProvider(post.provider).getPost(opened.credentials, post.provider_post_id, { signal: AbortSignal.timeout(deadlineMs) });
  } catch (error) {
    if (isProviderError(error) && error.kind === 'not_found') {
      // Gone upstream (deleted in the provider's dashboard): so it is here.
      const gone = await posts.markDeleted(post.account_id, post.id, deletedResults(post.results));
      return { post: gone ?? post, stale: null };
    }
    await noteAuthFailure(error, opened);
    const stale = failureSummary(error, post.provider, 'the post');
    logger.info('post could not be refreshed; answering the stored state', { provider: post.provider, postId: post.id, reason: stale.code });
    return { post, stale };
  }
  const results = mergeResults(post.results, fresh.results);
  const stored = await posts.recordRefresh(post.account_id, post.id, { status: fresh.status, results });
  // Deleted meanwhile (a concurrent DELETE): what is stored now is the truth.
  if (!stored) return { post: (await posts.getPost(post.account_id, post.id)) ?? post, stale: null };
  return { post: stored, stale: null };
}

/** The connection for refreshing posts of `provider`, without failing the read when it is unusable. */
async function connectionForRefresh(accountId: number, provider: ProviderName): Promise<Opened | undefined | 'unopenable'> {
  try {
    return await connections.getConnection(accountId, provider, { credentials: true });
  } catch (error) {
    if (isCredentialCipherError(error)) return 'unopenable';
    throw error;
  }
}

async function requirePost(request: AuthenticatedRequest): Promise<Post> {
  const post = await posts.getPost(request.principal.accountId, idParam(request));
  if (!post) throw notFound('Post');
  return post;
}

const getPost: Operation = async (request) => {
  const post = await requirePost(request);
  if (isFinalStatus(post.status)) return ok(postView(post));
  const opened = await connectionForRefresh(post.account_id, post.provider);
  const fresh = await refresh(post, opened, REFRESH_DEADLINE_MS);
  return ok(postView(fresh.post, fresh.stale));
};

/**
 * Whether a listed post may have moved on its own: publishing, or scheduled and its time has come
 * (or it was sent to go out now).
 * Drafts and posts scheduled later change only by someone's hand, which GET /social/posts/{id} sees.
 */
function movingOnItsOwn(post: Post, now: number): boolean {
  if (isFinalStatus(post.status)) return false;
  if (post.status === 'draft') return false;
  // provider_a shows a post sent "now" as scheduled (pending) until it goes out.
  if (post.status === 'scheduled') return post.schedule_at === null || Date.parse(post.schedule_at) <= now;
  return true;
}

const listPosts: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const page = pageParams(request);
  const slice = await posts.listPosts(accountId, page.page, page.perPage);
  const now = Date.now();
  const due = slice.items.filter((p) => movingOnItsOwn(p, now));
  const views = new Map(slice.items.map((p) => [p.id, postView(p)]));
  if (due.length > 0) {
    const providers = [...new Set(due.map((p) => p.provider))];
    const opened = new Map(await Promise.all(providers.map(async (p) => [p, await connectionForRefresh(accountId, p)] as const)));
    const deadline = now + LIST_REFRESH_DEADLINE_MS;
    const queue = [...due];
    const worker = async () => {
      for (let post = queue.shift(); post; post = queue.shift()) {
        const left = deadline - Date.now();
        if (left < 500) {
          views.set(post.id, postView(post, { code: 'upstream_unavailable', message: 'not refreshed in this listing; GET the post for its current state' }));
          continue;
        }
        const fresh = await refresh(post, opened.get(post.provider), Math.min(REFRESH_DEADLINE_MS, left));
        views.set(post.id, postView(fresh.post, fresh.stale));
      }
    };
    await Promise.all(Array.from({ length: Math.min(LIST_REFRESH_CONCURRENCY, due.length) }, worker));
  }
  return ok(
    slice.items.map((p) => views.get(p.id)!),
    200,
    pageMeta(page, slice.total),
  );
};

const deletePost: Operation = async (request) => {
  const accountId = request.principal.accountId;
  let post = await requirePost(request);
  // Deleting twice is not an error: the record says it is gone, and nothing is asked upstream again.
  if (post.status === 'deleted') return deleted(post.id);

  const provider = post.provider;
  const adapter = socialProvider(provider);
  const openedOrNot = await connectionForRefresh(accountId, provider);
  if (openedOrNot !== undefined && openedOrNot !== 'unopenable' && !isFinalStatus(post.status)) {
    // The rule is judged on the state the provider has now (a scheduled post may have gone out).
    // If the provider cannot be asked, the stored state is judged; the provider enforces its own rule too.
    post = (await refresh(post, openedOrNot, REFRESH_DEADLINE_MS)).post;
    if (post.status === 'deleted') return deleted(post.id);
  }

  const verdict = adapter.deleteRule({ status: post.status, results: post.results.map(toChannelResult) });
  if (!verdict.allowed) {
    throw conflict(`This ${post.status} post cannot be deleted on ${provider}: ${verdict.reason}`);
  }
  if (openedOrNot === undefined) throw connectFirst(provider);
  if (openedOrNot === 'unopenable' || openedOrNot.connection.status === 'error') throw reconnect(provider);
  const opened = openedOrNot;

  try {
    await adapter.deletePost(opened.credentials, post.provider_post_id, { signal: AbortSignal.timeout(DELETE_DEADLINE_MS) });
  } catch (error) {
    // Already gone upstream: the delete has nothing left to do there.
    if (!(isProviderError(error) && error.kind === 'not_found')) {
      await noteAuthFailure(error, opened);
      throw providerFailure(error, provider, 'the delete');
    }
  }
  const gone = await posts.markDeleted(accountId, post.id, await resultsAfterDelete(post, opened));
  if (!gone) throw notFound('Post');
  logger.info('post deleted', { provider, accountId, postId: post.id });
  return deleted(post.id);
};

/**
 * Per-channel results once the provider took the delete. A delete may leave copies up (provider_a
 * cannot remove published Instagram/TikTok copies), so the provider is asked what is left; when it
 * cannot say (provider_b forgets deleted posts), what was published or waiting is taken as gone.
 */
async function resultsAfterDelete(post: Post, opened: Opened): Promise<Post['results']> {
  try {
    const after = await socialProvider(post.provider).getPost(opened.credentials, post.provider_post_id, { signal: AbortSignal.timeout(5_000) });
    const merged = mergeResults(post.results, after.results);
    // Whatever the provider still calls pending will never go out now.
    return merged.map((r) => (r.status === 'pending' ? { ...r, status: 'deleted' } : r));
  } catch {
    return deletedResults(post.results);
  }
}

function toChannelResult(r: Post['results'][number]) {
  return { channelId: r.account_id, platform: r.platform, status: r.status, url: r.url, error: r.error };
}

export const socialPostOperations = { listPosts, createPost, getPost, deletePost };
