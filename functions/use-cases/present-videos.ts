/**
 * Finished videos as clients see them: a playable (presigned) url, a download url (the same object,
 * saved as an attachment named after its product and hook) and its poster.
 */
import { videoDownloadName, videoView, type Video, type VideoNaming } from '#domain/video';
import type { BlobStore } from '#ports/blob-store';
import type { Ports } from '#ports/ports';

export type PresentVideosDeps = Pick<Ports, 'jobs' | 'products' | 'blobs' | 'now'>;

export async function presentVideos(deps: PresentVideosDeps, accountId: number, videos: readonly Video[]) {
  const names = await namings(deps, accountId, videos);
  const now = deps.now();
  return Promise.all(videos.map((video, i) => present(deps.blobs, video, names[i]!, now)));
}

async function present(blobs: BlobStore, video: Video, naming: VideoNaming, now: Date) {
  const [playable, download, poster] = await Promise.all([
    blobs.playbackUrl(video.key, now),
    blobs.downloadUrl(video.key, videoDownloadName(video.id, naming), now),
    blobs.playbackUrl(video.poster_key, now),
  ]);
  return videoView(video, playable, download, poster, now);
}

/**
 * Each video's product name and hook, for its download's file name. The hook is kept on the video; only
 * one made before that reads its job. A product is read once for all its videos.
 */
async function namings(deps: Pick<Ports, 'jobs' | 'products'>, accountId: number, videos: readonly Video[]): Promise<VideoNaming[]> {
  const products = new Map<number, Promise<string | null>>();
  const productName = (productId: number) => {
    if (!products.has(productId)) products.set(productId, deps.products.get(accountId, productId).then((product) => product?.name ?? null));
    return products.get(productId)!;
  };
  return Promise.all(
    videos.map(async (video) => {
      const hookText = video.hook_text !== undefined ? Promise.resolve(video.hook_text) : deps.jobs.get(accountId, video.job_id).then((job) => job?.hook_text ?? null);
      const [hook, name] = await Promise.all([hookText, productName(video.product_id)]);
      return { productName: name, hookText: hook };
    }),
  );
}
