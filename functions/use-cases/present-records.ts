/**
 * Records as their GET answers them, playable links signed: the API's operations and webhook
 * payloads present them through here, so an event's `data` is exactly what a GET would return.
 */
import { avatarView, type Avatar } from '#domain/avatar';
import { jobView } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import { productView, type Product } from '#domain/product';
import type { BlobStore } from '#ports/blob-store';

export async function presentJob(blobs: BlobStore, job: StoredJob) {
  if (job.status !== 'preview_ready' || !job.preview) return jobView(job);
  const [preview, still] = await Promise.all([blobs.playbackUrl(job.preview.key), job.preview.still_key ? blobs.playbackUrl(job.preview.still_key) : undefined]);
  return jobView(job, { ...preview, stillUrl: still?.url ?? null });
}

export async function presentProduct(blobs: BlobStore, product: Product) {
  const key = product.demo?.status === 'ready' ? product.demo.key : undefined;
  return productView(product, key ? await blobs.playbackUrl(key) : undefined);
}

export async function presentAvatar(blobs: BlobStore, avatar: Avatar) {
  const image = avatar.status === 'ready' && avatar.image_key ? await blobs.playbackUrl(avatar.image_key) : undefined;
  return avatarView(avatar, image);
}
