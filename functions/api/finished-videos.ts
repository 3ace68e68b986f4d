/**
 * Finished videos: listed with pagination, fetched with a playable (presigned) url, a download url
 * (the same object, saved as an attachment named after its product and hook) and its
 * poster, deleted with their objects. The job operations share the videos handler group beside these.
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import { idParam, pageMeta, pageParams } from '#http/params';
import { deleted, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { videoDownloadName, videoView, type Video, type VideoNaming } from '#domain/video';
import type { BlobStore } from '#ports/blob-store';
import type { Dependencies } from '#ports/dependencies';
import { deleteVideo } from '#use-cases/delete-video';

async function present(blobs: BlobStore, video: Video, naming: VideoNaming) {
  const now = new Date();
  const [playable, download, poster] = await Promise.all([
    blobs.playbackUrl(video.key, now),
    blobs.downloadUrl(video.key, videoDownloadName(video.id, naming), now),
    blobs.playbackUrl(video.poster_key, now),
  ]);
  return videoView(video, playable, download, poster);
}

/** Each video's product name and hook (its job's), for its download's file name; a product is read once for all its videos. */
async function namings(deps: Pick<Dependencies, 'jobs' | 'products'>, accountId: number, videos: readonly Video[]): Promise<VideoNaming[]> {
  const products = new Map<number, Promise<string | null>>();
  const productName = (productId: number) => {
    if (!products.has(productId)) products.set(productId, deps.products.get(accountId, productId).then((product) => product?.name ?? null));
    return products.get(productId)!;
  };
  return Promise.all(
    videos.map(async (video) => {
      const [job, name] = await Promise.all([deps.jobs.get(accountId, video.job_id), productName(video.product_id)]);
      return { productName: name, hookText: job?.hook_text ?? null };
    }),
  );
}

async function presentAll(request: AuthenticatedRequest, videos: readonly Video[]) {
  const names = await namings(request.deps, request.principal.accountId, videos);
  return Promise.all(videos.map((video, i) => present(request.deps.blobs, video, names[i]!)));
}

const list: Operation = async (request) => {
  const page = pageParams(request);
  const slice = await request.deps.videos.list(request.principal.accountId, page.page, page.perPage);
  return ok(await presentAll(request, slice.items), 200, pageMeta(page, slice.total));
};

const get: Operation = async (request) => {
  const video = await request.deps.videos.get(request.principal.accountId, idParam(request));
  if (!video) throw notFound('Video');
  return ok((await presentAll(request, [video]))[0]);
};

const remove: Operation = async (request) => {
  const id = await deleteVideo(request.deps, { accountId: request.principal.accountId, videoId: idParam(request) });
  return deleted(id);
};

export const finishedVideoOperations = { list, get, remove };
