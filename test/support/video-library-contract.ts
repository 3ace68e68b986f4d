/**
 * What every VideoLibrary must do, run against the DynamoDB library and the in-memory double the unit
 * tests use. The port only reads and deletes: videos come in by Finalize's write (JobStore.finishWithVideo),
 * which each library offers on its own side, so the suite is given that write as `record`.
 */
import type { Video } from '#domain/video';
import type { VideoLibrary } from '#ports/video-library';
const { min } = Math;

export interface VideoLibraryUnderTest {
  videos: VideoLibrary;
  /** Finalize's write of a finished video alone: false, and nothing written, when its id is taken. */
  record(video: Video): Promise<boolean>;
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

const videoOf = (accountId: number, id: number, createdAt = at(0)): Video => ({
  id,
  account_id: accountId,
  job_id: id + 10_000,
  product_id: 3,
  key: `accounts/${accountId}/videos/${id}/video.mp4`,
  poster_key: `accounts/${accountId}/videos/${id}/poster.jpg`,
  duration_s: 12.5,
  width: 1080,
  height: 1920,
  size_bytes: 2_345_678,
  created_at: createdAt,
});

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function videoLibraryContract(under: () => VideoLibraryUnderTest, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;
  const videos = () => under().videos;

  async function recorded(accountId: number, createdAt?: string): Promise<Video> {
    const video = videoOf(accountId, await videos().newVideoId(accountId), createdAt);
    expect(await under().record(video)).toBe(true);
    return video;
  }

  describe('the video library', () => {
    test('a new video id is above every earlier one of the account, and ids taken together all differ', async () => {
      const accountId = freshAccount();
      const first = await videos().newVideoId(accountId);
      const second = await videos().newVideoId(accountId);
      const together = await Promise.all(Array.from({ length: 8 }, () => videos().newVideoId(accountId)));
      expect(second).toBeGreaterThan(first);
      expect(min(...together)).toBeGreaterThan(second);
      expect(new Set(together).size).toBe(together.length);
    });

    test('the hook it was finished with reads back, a null one as null; a video kept without one has none', async () => {
      const accountId = freshAccount();
      for (const hook_text of ['Wait for it', null]) {
        const video = { ...videoOf(accountId, await videos().newVideoId(accountId)), hook_text };
        expect(await under().record(video)).toBe(true);
        expect(await videos().get(accountId, video.id)).toEqual(video);
      }
      const older = await recorded(accountId);
      expect(await videos().get(accountId, older.id)).not.toHaveProperty('hook_text');
    });

    test('a recorded video reads back as it was written, and only in its account', async () => {
      const accountId = freshAccount();
      const video = await recorded(accountId);
      expect(await videos().get(accountId, video.id)).toEqual(video);
      expect(await videos().get(accountId + 1, video.id)).toBeUndefined();
      expect(await videos().get(accountId, video.id + 1)).toBeUndefined();
    });

    test('its retention and file expiry are kept with it; a video made before retention reads back without them', async () => {
      const accountId = freshAccount();
      const retained: Video = { ...videoOf(accountId, await videos().newVideoId(accountId)), retention_days: 30, file_expires_at: '2026-03-31T10:00:00.000Z' };
      expect(await under().record(retained)).toBe(true);
      const before = await recorded(accountId);
      expect(await videos().get(accountId, retained.id)).toEqual(retained);
      expect(await videos().get(accountId, before.id)).not.toHaveProperty('file_expires_at');
    });

    test('a video id is recorded once: a second record is refused and the first stands', async () => {
      const accountId = freshAccount();
      const video = await recorded(accountId);
      expect(await under().record({ ...video, key: 'another.mp4' })).toBe(false);
      expect(await videos().get(accountId, video.id)).toEqual(video);
      expect((await videos().list(accountId, 1, 10)).total).toBe(1);
    });

    test('lists page newest first with the total; a page past the end is empty, as is an account with none', async () => {
      const accountId = freshAccount();
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await recorded(accountId, at(i))).id);
      expect(await videos().list(accountId, 1, 2)).toEqual({ items: [videoOf(accountId, ids[2]!, at(2)), videoOf(accountId, ids[1]!, at(1))], total: 3 });
      expect(await videos().list(accountId, 2, 2)).toEqual({ items: [videoOf(accountId, ids[0]!, at(0))], total: 3 });
      expect(await videos().list(accountId, 3, 2)).toEqual({ items: [], total: 3 });
      expect(await videos().list(freshAccount(), 1, 2)).toEqual({ items: [], total: 0 });
    });

    test('newest is the latest id: a video begun later but finished first is listed before one begun earlier', async () => {
      const accountId = freshAccount();
      const begunFirst = await videos().newVideoId(accountId);
      const begunLater = await videos().newVideoId(accountId);
      expect(await under().record(videoOf(accountId, begunLater, at(1)))).toBe(true);
      expect(await under().record(videoOf(accountId, begunFirst, at(2)))).toBe(true);
      expect((await videos().list(accountId, 1, 10)).items.map((v) => v.id)).toEqual([begunLater, begunFirst]);
    });

    test('a delete answers the record once, only in its account, and the list and its total lose it', async () => {
      const accountId = freshAccount();
      const [older, newer] = [await recorded(accountId, at(0)), await recorded(accountId, at(1))];
      expect(await videos().delete(accountId + 1, older.id)).toBeUndefined();
      expect(await videos().get(accountId, older.id)).toEqual(older);
      expect(await videos().delete(accountId, older.id)).toEqual(older);
      expect(await videos().delete(accountId, older.id)).toBeUndefined();
      expect(await videos().get(accountId, older.id)).toBeUndefined();
      expect(await videos().list(accountId, 1, 10)).toEqual({ items: [newer], total: 1 });
    });

    test('what a caller does to a video it read does not change what is stored', async () => {
      const accountId = freshAccount();
      const video = await recorded(accountId);
      (await videos().get(accountId, video.id))!.key = 'changed';
      (await videos().list(accountId, 1, 1)).items[0]!.size_bytes = 0;
      expect(await videos().get(accountId, video.id)).toEqual(video);
    });
  });
}
