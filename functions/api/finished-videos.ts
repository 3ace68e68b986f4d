/**
 * Finished videos: listed with pagination, fetched with a playable (presigned) url, a download url
 * (the same object, saved as an attachment) and its poster, deleted with their objects. The job operations share the videos handler group beside these.
 */
import type { Operation } from '#http/api-types';
import { idParam, pageMeta, pageParams } from '#http/params';
import { deleted, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { videoDownloadName, videoView, type Video } from '#domain/video';
import type { BlobStore } from '#ports/blob-store';
import { deleteVideo } from '#use-cases/delete-video';

async function present(blobs: BlobStore, video: Video) {
  const now = new Date();
  const [playable, download, poster] = await Promise.all([
    blobs.playbackUrl(video.key, now),
    blobs.downloadUrl(video.key, videoDownloadName(video.id), now),
    blobs.playbackUrl(video.poster_key, now),
  ]);
  return videoView(video, playable, download, poster);
}

const list: Operation = async (request) => {
  const page = pageParams(request);
  const slice = await request.deps.videos.list(request.principal.accountId, page.page, page.perPage);
  return ok(await Promise.all(slice.items.map((video) => present(request.deps.blobs, video))), 200, pageMeta(page, slice.total));
};

const get: Operation = async (request) => {
  const video = await request.deps.videos.get(request.principal.accountId, idParam(request));
  if (!video) throw notFound('Video');
  return ok(await present(request.deps.blobs, video));
};

const remove: Operation = async (request) => {
  const id = await deleteVideo(request.deps, { accountId: request.principal.accountId, videoId: idParam(request) });
  return deleted(id);
};

export const finishedVideoOperations = { list, get, remove };
