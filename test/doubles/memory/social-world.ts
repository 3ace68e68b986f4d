/**
 * The social use cases' world in memory: both providers faked, the post, connection and analytics
 * stores, the cipher, finished videos (with their jobs and products) and the rate limiter, over a
 * clock the test sets.
 */
import type { Channel, ProviderCredentials, ProviderName } from '#domain/social';
import type { Video } from '#domain/video';
import type { Ports } from '#ports/ports';
import { newJob } from '#domain/job-execution';
import { storeConnection } from '#use-cases/set-connection';
import { testDependencies } from '#test-support/wiring';
import { promptRequest } from '#test-support/video-jobs';
import { MemoryAnalyticsCache } from './analytics-cache';
import { MemoryBlobStore } from './blob-store';
import { MemoryConnectionStore } from './connection-store';
import { MemoryCredentialCipher } from './credential-cipher';
import { MemoryPostStore } from './post-store';
import { MemoryRateLimiter } from './rate-limiter';
import { fakeSocial } from './social-provider';
import { MemoryJobStore } from './job-store';
import { MemoryProductStore } from './product-store';
import { MemoryVideoLibrary } from './video-library';

export const TIKTOK: Channel = { id: 'ch-tiktok', platform: 'tiktok', name: 'Acme on TikTok', username: 'acme', active: true };
export const YOUTUBE: Channel = { id: 'ch-youtube', platform: 'youtube', name: 'Acme', username: null, active: true };
export const X: Channel = { id: 'ch-x', platform: 'x', name: 'Acme on X', username: 'acme', active: true };
export const OLD_INSTAGRAM: Channel = { id: 'ch-instagram', platform: 'instagram', name: 'Acme (old)', username: 'acme', active: false };

export function socialWorld(start = new Date('2026-03-01T10:00:00Z')) {
  let now = start;
  const fakes = fakeSocial();
  const posts = new MemoryPostStore();
  const connections = new MemoryConnectionStore();
  const analytics = new MemoryAnalyticsCache();
  const cipher = new MemoryCredentialCipher();
  const videos = new MemoryVideoLibrary();
  const jobs = new MemoryJobStore(undefined, videos);
  const products = new MemoryProductStore();
  const blobs = new MemoryBlobStore();
  const rateLimits = new MemoryRateLimiter(() => now.getTime());
  const deps: Ports = testDependencies({
    social: fakes.social,
    posts,
    connections,
    analytics,
    cipher,
    videos,
    jobs,
    products,
    blobs,
    rateLimits,
    now: () => now,
  });
  return {
    deps,
    provider_a: fakes.provider_a,
    provider_b: fakes.provider_b,
    posts,
    connections,
    analytics,
    videos,
    jobs,
    products,
    setNow(at: Date) {
      now = at;
    },
    /** A stored connection, as a successful PUT /social/connections/{provider} leaves it. */
    async connect(accountId: number, provider: ProviderName, channels: Channel[], credentials: ProviderCredentials = { apiKey: `${provider}_key_0123456789` }) {
      return (await storeConnection(deps, { accountId, provider, credentials, channels })).connection;
    },
    /**
     * A finished video of the account, as Finalize records it. Named (a product and a hook): its
     * product and job are stored too, as the studio's flow leaves them.
     */
    async video(accountId: number, named?: { product: string; hook: string | null }, fields: Partial<Video> = {}): Promise<Video> {
      const id = await videos.newVideoId();
      let productId = 1;
      let jobId = 1000 + id;
      if (named) {
        productId = await products.newProductId();
        const at = now.toISOString();
        await products.create({ id: productId, account_id: accountId, name: named.product, description: null, demo: null, created_at: at, updated_at: at });
        jobId = await jobs.newJobId();
        jobs.put({ ...newJob(accountId, jobId, promptRequest(productId, { hookText: named.hook }), null, 1, now), status: 'done', video_id: id });
      }
      const video: Video = {
        id,
        account_id: accountId,
        job_id: jobId,
        product_id: productId,
        key: `videos/${accountId}/${id}.mp4`,
        poster_key: `videos/${accountId}/${id}.jpg`,
        duration_s: 2,
        width: 720,
        height: 1280,
        size_bytes: 123_456,
        created_at: now.toISOString(),
        ...fields,
      };
      videos.putNew(video);
      return video;
    },
  };
}

export type SocialWorld = ReturnType<typeof socialWorld>;
