import type { Video } from '#domain/video';
import { deleteVideo } from '#use-cases/delete-video';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryVideoLibrary } from '#test-doubles/memory/video-library';
import { testDependencies } from '#test-support/wiring';

const video: Video = {
  id: 5,
  account_id: 7,
  job_id: 3,
  product_id: 1,
  key: 'accounts/7/videos/5/video.mp4',
  poster_key: 'accounts/7/jobs/3/poster-0.jpg',
  duration_s: 9,
  width: 1080,
  height: 1920,
  size_bytes: 1000,
  created_at: '2026-03-01T10:00:00.000Z',
};

describe('deleteVideo', () => {
  test('removes the record, the objects it names and anything else under its prefix', async () => {
    const videos = new MemoryVideoLibrary();
    const blobs = new MemoryBlobStore();
    videos.putNew(video);
    for (const key of [video.key, video.poster_key, 'accounts/7/videos/5/left-over', 'accounts/7/videos/6/video.mp4']) await blobs.putBuffer(key, Buffer.from('x'), 'video/mp4');
    expect(await deleteVideo(testDependencies({ videos, blobs }), { accountId: 7, videoId: 5 })).toBe(5);
    expect(await videos.get(7, 5)).toBeUndefined();
    expect([...blobs.objects.keys()]).toEqual(['accounts/7/videos/6/video.mp4']);
  });

  test('an unknown or foreign video is 404', async () => {
    const videos = new MemoryVideoLibrary();
    videos.putNew(video);
    await expect(deleteVideo(testDependencies({ videos }), { accountId: 8, videoId: 5 })).rejects.toMatchObject({ code: 'not_found' });
  });
});
