/**
 * Records as their GET answers them, playable links signed: the API's operations and webhook
 * payloads present them through here, so an event's `data` is exactly what a GET would return.
 */
import { avatarView, type Avatar } from '#domain/avatar';
import { jobView } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import { productView, type Product } from '#domain/product';
import { isCurrentTake, takeFilesKept, takesOf, takeView } from '#domain/takes';
import type { BlobStore } from '#ports/blob-store';

export async function presentJob(blobs: BlobStore, job: StoredJob) {
  if (job.status !== 'preview_ready' || !job.preview) return jobView(job);
  const [preview, still] = await Promise.all([blobs.playbackUrl(job.preview.key), job.preview.still_key ? blobs.playbackUrl(job.preview.still_key) : undefined]);
  return jobView(job, { ...preview, stillUrl: still?.url ?? null });
}

/** GET /videos/jobs/{id}/takes: each take's preview signed as the job's own is, while its files are kept. */
export async function presentTakes(blobs: BlobStore, job: StoredJob) {
  const playable = takeFilesKept(job);
  return Promise.all(
    takesOf(job).map(async (take) => {
      const current = isCurrentTake(job, take);
      if (!playable) return takeView(take, current);
      const [preview, still] = await Promise.all([blobs.playbackUrl(take.preview.key), take.preview.still_key ? blobs.playbackUrl(take.preview.still_key) : undefined]);
      return takeView(take, current, { ...preview, stillUrl: still?.url ?? null });
    }),
  );
}

export async function presentProduct(blobs: BlobStore, product: Product) {
  const key = product.demo?.status === 'ready' ? product.demo.key : undefined;
  return productView(product, key ? await blobs.playbackUrl(key) : undefined);
}

export async function presentAvatar(blobs: BlobStore, avatar: Avatar) {
  const image = avatar.status === 'ready' && avatar.image_key ? await blobs.playbackUrl(avatar.image_key) : undefined;
  return avatarView(avatar, image);
}
