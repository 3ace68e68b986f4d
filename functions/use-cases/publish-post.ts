/**
 * Publishing a finished video through a connected scheduling provider: now, at a time, or as a draft.
 * A post is stored only once its provider accepted it: every check runs first (connection, video,
 * channels, X app, caption), the id is allocated, the provider is called with that id as its
 * external id, and only its acceptance is written. A failed call leaves nothing behind; an accepted
 * post that cannot be recorded is withdrawn upstream where the provider's delete rule allows.
 */
import { badRequest, notFound } from '#domain/errors';
import { requireKeptFile } from '#domain/video-retention';
import { checkCaption, checkXApp, mediaUrlTtlS, newPost, pickChannels, type Post, type PostRequest, type ProviderPost } from '#domain/social-post';
import type { Video } from '#domain/video';
import { isProviderError, type PostMedia } from '#ports/social-provider';
import type { Ports } from '#ports/ports';
import { accessConnection, usableConnection, type OpenedConnection } from './connection-credentials';
import { logOf, type UseCaseLog } from './log';
import { providerFailure } from './provider-errors';
import { noteAuthFailure } from './refresh-posts';
import { socialRequestOf } from '#domain/test-mode';

/** Deadlines keep every answer under API Gateway's 30 s, whatever the provider does. */
const CREATE_DEADLINE_MS = 20_000;
const WITHDRAW_DEADLINE_MS = 5_000;

export type PublishDeps = Pick<Ports, 'social' | 'posts' | 'connections' | 'cipher' | 'videos' | 'blobs' | 'now'> & { log?: UseCaseLog };

export async function publishPost(deps: PublishDeps, input: { accountId: number; request: PostRequest }): Promise<Post> {
  const { accountId, request } = input;
  const provider = request.provider;
  const log = logOf(deps);
  const now = deps.now();

  const access = await accessConnection(deps, accountId, provider);
  const opened = usableConnection(access, provider);
  const video = await deps.videos.get(accountId, request.videoId);
  if (!video) throw notFound(`video_id: Video ${request.videoId}`);
  requireKeptFile(video, now);
  if (request.scheduleAt && video.file_expires_at && request.scheduleAt.getTime() >= Date.parse(video.file_expires_at)) {
    throw badRequest(`schedule_at must be before the video's file expires (${video.file_expires_at}): the provider fetches it then`, 'schedule_at');
  }
  const channels = pickChannels(provider, request.accountIds, opened.connection.channels);
  checkXApp(provider, channels, opened.credentials);
  checkCaption(request.caption, channels);

  const id = await deps.posts.newPostId();
  const media = await mediaLinks(deps, video, request.scheduleAt, now);
  let accepted: ProviderPost;
  try {
    accepted = await deps.social(provider, socialRequestOf(accountId)).createPost(
      opened.credentials,
      { caption: request.caption, channels, media, scheduleAt: request.scheduleAt, draft: request.draft, externalId: String(id) },
      { signal: AbortSignal.timeout(CREATE_DEADLINE_MS) },
    );
  } catch (error) {
    await noteAuthFailure(deps, error, access);
    log.info('provider did not accept a post', { provider, accountId, postId: id, kind: isProviderError(error) ? error.kind : 'other' });
    throw providerFailure(error, provider, 'the post');
  }

  const post = newPost({ id, accountId, request, channels, accepted, now: deps.now() });
  try {
    await deps.posts.create(post);
  } catch (error) {
    log.error('accepted post could not be stored; withdrawing it upstream', { provider, accountId, postId: id, error: error as Error });
    await withdraw(deps, opened, accepted);
    throw error;
  }
  log.info('post created', { provider, accountId, postId: id, status: post.status, channels: channels.length });
  return post;
}

/** The provider may fetch the media only at the scheduled time: the links live until a day past it (max 7 days). */
async function mediaLinks(deps: Pick<Ports, 'blobs'>, video: Video, scheduleAt: Date | null, now: Date): Promise<PostMedia> {
  const ttlS = mediaUrlTtlS(scheduleAt, now);
  const [media, poster] = await Promise.all([deps.blobs.playbackUrl(video.key, now, ttlS), deps.blobs.playbackUrl(video.poster_key, now, ttlS)]);
  return { url: media.url, thumbnailUrl: poster.url, sizeBytes: video.size_bytes, fileName: `video-${video.id}.mp4` };
}

/** Takes back a post we could not record, where the provider's rule allows; a failure here is only logged. */
async function withdraw(deps: PublishDeps, opened: OpenedConnection, accepted: ProviderPost): Promise<void> {
  const adapter = deps.social(opened.connection.provider, socialRequestOf(opened.connection.account_id));
  if (!adapter.deleteRule(accepted).allowed) return;
  await adapter
    .deletePost(opened.credentials, accepted.providerPostId, { signal: AbortSignal.timeout(WITHDRAW_DEADLINE_MS) })
    .catch((e: unknown) =>
      logOf(deps).error('withdrawing the post failed', { provider: opened.connection.provider, providerPostId: accepted.providerPostId, error: e as Error }),
    );
}

