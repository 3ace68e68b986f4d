/** Videos as clients see them: the download is named after the product and the hook the video was finished with. */
import type { Video } from '#domain/video';
import { presentVideos, type PresentVideosDeps } from '#use-cases/present-videos';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const videoOf = (id: number, extra: Partial<Video> = {}): Video => ({
  id,
  account_id: 7,
  job_id: id + 100,
  product_id: 1,
  key: `accounts/7/videos/${id}/video.mp4`,
  poster_key: `accounts/7/videos/${id}/poster.jpg`,
  duration_s: 9,
  width: 1080,
  height: 1920,
  size_bytes: 1000,
  created_at: '2026-03-01T10:00:00.000Z',
  ...extra,
});

function deps() {
  const jobs = { get: jest.fn(async (_account: number, id: number) => ({ hook_text: `job ${id} hook` })) };
  const products = { get: jest.fn(async () => ({ name: 'Glow Serum' })) };
  return { jobs, products, all: { jobs, products, blobs: new MemoryBlobStore(), now: () => NOW } as unknown as PresentVideosDeps };
}

const fileName = (url: string) => decodeURIComponent(new URL(url).searchParams.get('download') ?? '');

describe('presentVideos', () => {
  test('a video that keeps its hook (a null one too) reads no job; the product is read once for all', async () => {
    const { jobs, products, all } = deps();
    const views = await presentVideos(all, 7, [videoOf(1, { hook_text: 'Wait for it' }), videoOf(2, { hook_text: null })]);
    expect(views.map((v) => fileName(v.download_url))).toEqual(['glow-serum-wait-for-it.mp4', 'glow-serum-video-2.mp4']);
    expect(jobs.get).not.toHaveBeenCalled();
    expect(products.get).toHaveBeenCalledTimes(1);
  });

  test('a video made before the hook was kept reads it from its job', async () => {
    const { jobs, all } = deps();
    const [view] = await presentVideos(all, 7, [videoOf(3)]);
    expect(fileName(view!.download_url)).toBe('glow-serum-job-103-hook.mp4');
    expect(jobs.get).toHaveBeenCalledWith(7, 103);
  });
});
