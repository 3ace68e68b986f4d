/**
 * Finished videos: listed with pagination, fetched with a playable (presigned) url, a download url
 * (the same object, saved as an attachment named after its product and hook) and its
 * poster, deleted with their objects. The job operations share the videos handler group beside these.
 */
import type { Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { idParam, pageMeta, pageParams } from '#http/params';
import { deleted, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { requireKeptFile } from '#domain/video-retention';
import { deleteVideo } from '#use-cases/delete-video';
import { presentVideos } from '#use-cases/present-videos';

type Reads = NeedsOf<typeof presentVideos> & Pick<Ports, 'videos' | 'now'>;

const list: Operation<Reads> = async (request) => {
  const page = pageParams(request);
  const slice = await request.deps.videos.list(request.principal.accountId, page.page, page.perPage);
  return ok(await presentVideos(request.deps, request.principal.accountId, slice.items), 200, pageMeta(page, slice.total));
};

const get: Operation<Reads> = async (request) => {
  const video = await request.deps.videos.get(request.principal.accountId, idParam(request));
  if (!video) throw notFound('Video');
  // The links it would hand out lead nowhere once lifecycle has removed the file.
  requireKeptFile(video, request.deps.now());
  return ok((await presentVideos(request.deps, request.principal.accountId, [video]))[0]);
};

const remove: Operation<NeedsOf<typeof deleteVideo>> = async (request) => {
  const id = await deleteVideo(request.deps, { accountId: request.principal.accountId, videoId: idParam(request) });
  return deleted(id);
};

export const finishedVideoOperations = { list, get, remove };
