/**
 * Finished videos: listed with pagination, fetched with a playable (presigned) url and its poster,
 * deleted with their objects. The job operations share the videos handler group beside these.
 */
import type { Operation } from '#http/api-types';
import { idParam, pageMeta, pageParams } from '#http/params';
import { deleted, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { videoObjectPrefix, videoView, type Video } from '#domain/video';
import * as videos from '#adapters/dynamodb/videos';
import { deleteKeys, deletePrefix, playbackUrl } from '#adapters/s3/blob-store';

async function present(video: Video) {
  const [playable, poster] = await Promise.all([playbackUrl(video.key), playbackUrl(video.poster_key)]);
  return videoView(video, playable, poster);
}

const list: Operation = async (request) => {
  const page = pageParams(request);
  const slice = await videos.listVideos(request.principal.accountId, page.page, page.perPage);
  return ok(await Promise.all(slice.items.map(present)), 200, pageMeta(page, slice.total));
};

const get: Operation = async (request) => {
  const video = await videos.getVideo(request.principal.accountId, idParam(request));
  if (!video) throw notFound('Video');
  return ok(await present(video));
};

const remove: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const id = idParam(request);
  const video = await videos.deleteVideo(accountId, id);
  if (!video) throw notFound('Video');
  const prefix = videoObjectPrefix(accountId, id);
  // The record names its objects; anything else the pipeline left under the video's prefix goes too.
  await Promise.all([deleteKeys([video.key, video.poster_key].filter((key) => !key.startsWith(prefix))), deletePrefix(prefix)]);
  return deleted(id);
};

export const finishedVideoOperations = { list, get, remove };
