/**
 * Finished videos through the local HTTP server: list, fetch (playable url, download url), delete. Videos are
 * seeded as the pipeline's Finalize step stores them (record + MP4 + poster), so no job has to run.
 */
import sharp from 'sharp';
import { videoObjectPrefix, type Video } from '#domain/video';
import { expectError, startTestStack, type TestStack } from '#test-support/local-stack';
import { finishedVideoFiles, seedFinishedVideo, type FinishedVideoFiles } from '#test-support/social';

let t: TestStack;

/** The stack's stored objects under `prefix`. */
const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);
let files: FinishedVideoFiles;
beforeAll(async () => {
  [t, files] = await Promise.all([startTestStack(), finishedVideoFiles({ r: 30, g: 90, b: 200 })]);
});
afterAll(() => t?.stop());

const seedVideo = (accountId: number): Promise<Video> =>
  seedFinishedVideo(t.stack, accountId, { videoPath: files.videoPath, posterBytes: files.posterBytes, sizeBytes: files.videoBytes.length, jobIdBase: 1000, productId: 7 });

async function download(url: string) {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((v) => v.id);

describe('listing finished videos', () => {
  test('pages newest first with page, per_page and total; a page past the end is empty', async () => {
    const { accountId, api } = await t.newAccount();
    const seeded: number[] = [];
    for (let i = 0; i < 5; i++) seeded.push((await seedVideo(accountId)).id);
    const newestFirst = [...seeded].reverse();

    const first = await api.get('/videos?per_page=2');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 5 });

    const third = await api.get('/videos?page=3&per_page=2');
    expect(ids(third)).toEqual(newestFirst.slice(4));
    expect(third.body.meta).toEqual({ page: 3, per_page: 2, total: 5 });

    const past = await api.get('/videos?page=4&per_page=2');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toEqual({ page: 4, per_page: 2, total: 5 });

    const whole = await api.get('/videos');
    expect(ids(whole)).toEqual(newestFirst);
    expect(whole.body.meta).toEqual({ page: 1, per_page: 20, total: 5 });
  });

  test('each listed video carries a playable url', async () => {
    const { accountId, api } = await t.newAccount();
    await seedVideo(accountId);
    const [listed] = (await api.get('/videos')).body.data;
    expect((await download(listed.url)).bytes.equals(files.videoBytes)).toBe(true);
  });

  test('an account with no videos gets an empty page with meta', async () => {
    const { api } = await t.newAccount();
    const res = await api.get('/videos');
    expect(res.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
  });

  test('another account’s videos are not listed', async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    await seedVideo(owner.accountId);
    expect((await stranger.api.get('/videos')).body.meta.total).toBe(0);
  });

  test.each(['page=0', 'page=x', 'per_page=0', 'per_page=101'])('?%s is a 400', async (query) => {
    const { api } = await t.newAccount();
    expectError(await api.get(`/videos?${query}`), 400, 'bad_request');
  });
});

describe('fetching a finished video', () => {
  test('answers the record with a url that serves the MP4 and a thumbnail_url that serves the poster', async () => {
    const { accountId, api } = await t.newAccount();
    const video = await seedVideo(accountId);
    const res = await api.get(`/videos/${video.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: video.id,
      job_id: video.job_id,
      product_id: 7,
      url: expect.stringMatching(/^http/),
      url_expires_at: expect.stringMatching(/Z$/),
      download_url: expect.stringMatching(/^http/),
      thumbnail_url: expect.stringMatching(/^http/),
      duration_s: 2,
      width: 720,
      height: 1280,
      size_bytes: files.videoBytes.length,
      test: false,
      // Seeded without a retention, as a video made before retention by plan: kept until deleted.
      expires_at: null,
      expired: false,
      created_at: video.created_at,
    });
    expect(Date.parse(res.body.data.url_expires_at)).toBeGreaterThan(Date.now() + 3600_000);

    const playable = await download(res.body.data.url);
    expect(playable.status).toBe(200);
    expect(playable.type).toBe('video/mp4');
    expect(playable.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(playable.bytes.equals(files.videoBytes)).toBe(true);

    const poster = await download(res.body.data.thumbnail_url);
    expect(poster.status).toBe(200);
    expect(poster.type).toBe('image/jpeg');
    expect((await sharp(poster.bytes).metadata()).format).toBe('jpeg');
  });

  test('download_url serves the same MP4 as an attachment, reaction-video-<id>.mp4 when nothing names it; url stays inline', async () => {
    const { accountId, api } = await t.newAccount();
    const video = await seedVideo(accountId);
    const { data } = (await api.get(`/videos/${video.id}`)).body;

    const saved = await fetch(data.download_url);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-disposition')).toBe(`attachment; filename="reaction-video-${video.id}.mp4"`);
    expect(saved.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await saved.arrayBuffer());
    expect(bytes.equals(files.videoBytes)).toBe(true);
    expect(bytes.equals((await download(data.url)).bytes)).toBe(true);

    expect((await fetch(data.url)).headers.get('content-disposition')).toBeNull();
    const [listed] = (await api.get('/videos')).body.data;
    expect(listed.download_url).toContain('response-content-disposition=');
  });

  test('a video named by its product and hook downloads under that name, made safe for any file system', async () => {
    const { accountId, api } = await t.newAccount();
    const named = (product: string, hook: string | null) =>
      seedFinishedVideo(t.stack, accountId, { videoPath: files.videoPath, posterBytes: files.posterBytes, sizeBytes: files.videoBytes.length, jobIdBase: 0, productId: 0, named: { product, hook } });
    const serum = await named('Glow Serum', 'Wait for it…');
    const crème = await named('Crème "Nuit" / Night', null);
    const dispositionOf = async (id: number) => (await fetch((await api.get(`/videos/${id}`)).body.data.download_url)).headers.get('content-disposition');

    expect(await dispositionOf(serum.id)).toBe('attachment; filename="glow-serum-wait-for-it.mp4"');
    expect(await dispositionOf(crème.id)).toBe(`attachment; filename="creme-nuit-night-video-${crème.id}.mp4"`);
    // The list names them the same way.
    const listed = (await api.get('/videos')).body.data;
    const saved = await fetch(listed.find((v: { id: number }) => v.id === serum.id).download_url);
    expect(saved.headers.get('content-disposition')).toBe('attachment; filename="glow-serum-wait-for-it.mp4"');
  });

  test('an unknown id, or another account’s, is a 404', async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const video = await seedVideo(owner.accountId);
    expectError(await stranger.api.get(`/videos/${video.id}`), 404, 'not_found');
    expectError(await owner.api.get('/videos/987654321'), 404, 'not_found');
  });

  test.each(['abc', '1.5', '-3', '0'])('id %s is a 400', async (id) => {
    const { api } = await t.newAccount();
    expectError(await api.get(`/videos/${id}`), 400, 'bad_request');
  });
});

describe('deleting a finished video', () => {
  test('removes the record, the MP4 and the poster', async () => {
    const { accountId, api } = await t.newAccount();
    const video = await seedVideo(accountId);
    const kept = await seedVideo(accountId);
    const { url } = (await api.get(`/videos/${video.id}`)).body.data;

    const res = await api.delete(`/videos/${video.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: video.id, deleted: true });

    expectError(await api.get(`/videos/${video.id}`), 404, 'not_found');
    expectError(await api.delete(`/videos/${video.id}`), 404, 'not_found');
    expect(await listKeys(videoObjectPrefix(accountId, video.id))).toEqual([]);
    expect((await download(url)).status).toBe(404);

    const listed = await api.get('/videos');
    expect(ids(listed)).toEqual([kept.id]);
    expect(listed.body.meta.total).toBe(1);
    expect(await listKeys(videoObjectPrefix(accountId, kept.id))).toHaveLength(2);
  });

  test('another account’s video is a 404 and survives', async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const video = await seedVideo(owner.accountId);
    expectError(await stranger.api.delete(`/videos/${video.id}`), 404, 'not_found');
    expect((await owner.api.get(`/videos/${video.id}`)).status).toBe(200);
    expect(await listKeys(videoObjectPrefix(owner.accountId, video.id))).toHaveLength(2);
  });

  test('a non-integer id is a 400', async () => {
    const { api } = await t.newAccount();
    expectError(await api.delete('/videos/abc'), 400, 'bad_request');
  });
});
