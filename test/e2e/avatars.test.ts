import sharp from 'sharp';
import { realFacePng } from '#bench/reference-clip';
import { rateLimitsOnStoppedClock } from '#test-support/clock';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { download, expectCanonical, probe, waitForJob } from '#test-support/jobs';
import { makeTempDir } from '#test-support/media-fixtures';
import { STOCK_AVATARS } from '#domain/stock-avatars';
import { join } from 'node:path';

let t: TestStack;

/** The stack's stored objects under `prefix`. */
const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);
beforeAll(async () => {
  t = await startTestStack({ adjustDependencies: rateLimitsOnStoppedClock });
});
afterAll(() => t?.stop());

function upload(api: ApiClient, bytes: Buffer, filename = 'me.jpg', extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append('image', new Blob([bytes]), filename);
  return api.send('POST', '/avatars', { body: form });
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 90 } } });

/** A real face at the given size: what an accepted upload must show. */
const portrait = async (width: number, height: number) => sharp(await sharp(await realFacePng()).resize(width, height, { fit: 'fill' }).png().toBuffer());

const STOCK_IDS = STOCK_AVATARS.map((s) => s.id);

/** The ids GET /avatars lists, and those of the account's own only. */
const listedIds = async (api: ApiClient) => ((await api.get('/avatars')).body.data as { id: number }[]).map((a) => a.id);
const ownIds = async (api: ApiClient) => (await listedIds(api)).filter((id) => !STOCK_IDS.includes(id));

async function expectNothingStored(accountId: number, api: ApiClient) {
  expect(await ownIds(api)).toEqual([]);
  expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
}

describe('uploading an avatar image', () => {
  test.each([
    ['a JPG', async () => (await portrait(400, 500)).jpeg().toBuffer(), 'image/jpeg'],
    ['a PNG', async () => (await portrait(400, 400)).png().toBuffer(), 'image/png'],
    ['a WEBP', async () => (await portrait(600, 400)).webp().toBuffer(), 'image/webp'],
  ])('%s is accepted, stored and playable', async (_label, make, contentType) => {
    const { api } = await t.newAccount();
    const res = await upload(api, await make());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'upload', status: 'ready', prompt: null, image_url: expect.stringMatching(/^http/) });
    const image = await fetch(res.body.data.image_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe(contentType);
  });

  test('the type comes from the bytes: a PNG named photo.jpg is a PNG', async () => {
    const { api } = await t.newAccount();
    const res = await upload(api, await (await portrait(400, 400)).png().toBuffer(), 'photo.jpg');
    expect(res.status).toBe(201);
    expect((await fetch(res.body.data.image_url)).headers.get('content-type')).toBe('image/png');
  });

  test('metadata is stripped and the EXIF orientation applied', async () => {
    const { api } = await t.newAccount();
    // Stored on its side, shown upright by the orientation tag: the face is found as displayed.
    const tagged = await sharp(await (await portrait(600, 400)).rotate(270).png().toBuffer())
      .jpeg()
      .withExif({ IFD0: { Artist: 'Secret Person', Copyright: 'GPS 48.85,2.35' } })
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    const rotated = await sharp(tagged).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const res = await upload(api, rotated);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ width: 600, height: 400 });
    const stored = Buffer.from(await (await fetch(res.body.data.image_url)).arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation ?? 1).toBe(1);
    expect(stored.includes(Buffer.from('Secret Person'))).toBe(false);
  });

  test.each([
    ['a GIF', () => solid(400, 400).gif().toBuffer(), 415, 'unsupported_media_type'],
    ['a text file named .png', async () => Buffer.from('hello, not an image'), 415, 'unsupported_media_type'],
    ['an empty file', async () => Buffer.alloc(0), 422, 'invalid_media'],
    ['an image smaller than 340x340', () => solid(339, 800).png().toBuffer(), 422, 'invalid_media'],
    ['a truncated JPG', async () => (await solid(800, 800).jpeg({ quality: 95 }).toBuffer()).subarray(0, 3000), 422, 'invalid_media'],
    ['a CMYK JPG', () => solid(400, 400).toColourspace('cmyk').jpeg().toBuffer(), 422, 'invalid_media'],
    ['a decompression bomb (100 megapixels, few bytes)', () => solid(10_000, 10_000).png({ compressionLevel: 9 }).toBuffer(), 422, 'invalid_media'],
    [
      'an animated WEBP',
      async () => sharp([await solid(400, 400).png().toBuffer(), await solid(400, 400).negate().png().toBuffer()], { join: { animated: true } }).webp().toBuffer(),
      422,
      'invalid_media',
    ],
  ] as const)('%s is refused and leaves nothing behind', async (_label, make, status, code) => {
    const { accountId, api } = await t.newAccount();
    expectError(await upload(api, Buffer.from(await make())), status, code);
    await expectNothingStored(accountId, api);
  });

  test('an image over 10 MB is 413', async () => {
    const { accountId, api } = await t.newAccount();
    const big = Buffer.concat([await solid(400, 400).png().toBuffer(), Buffer.alloc(10 * 1024 * 1024)]);
    expectError(await upload(api, big), 413, 'payload_too_large');
    await expectNothingStored(accountId, api);
  });

  test('prompt and image together are 400', async () => {
    const { api } = await t.newAccount();
    expectError(await upload(api, await (await portrait(400, 400)).png().toBuffer(), 'a.png', { prompt: 'a woman' }), 400, 'bad_request');
  });

  test('a picture without a face is 422 no_face, saying so; nothing is stored and the cap is not touched', async () => {
    const { accountId, api } = await t.newAccount({ plan: 'free' });
    const grey = await sharp({ create: { width: 800, height: 800, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toBuffer();
    const refused = await upload(api, grey, 'grey.png');
    expectError(refused, 422, 'no_face');
    expect(refused.body.error).toMatch(/could not find a face in this image/);
    expect(refused.body).toMatchObject({ param: 'image', doc_url: '/api/v1/docs/errors#no_face' });
    await expectNothingStored(accountId, api);
    expect((await api.get('/usage')).body.data.avatars).toMatchObject({ used: 0 });
  });

  test('uploads do not count against the AI-helper budget', async () => {
    const { api } = await t.newAccount({ plan: 'free' });
    const png = await (await portrait(400, 400)).png().toBuffer();
    for (let i = 0; i < 7; i++) expect((await upload(api, png)).status).toBe(201);
  });
});

describe("the plan's avatar cap", () => {
  test('past the cap a new avatar is 402 avatars_full, before any generation; usage shows the count, stock avatars apart; a delete makes room', async () => {
    const { api } = await t.newAccount({ plan: 'free' });
    const cap = (await api.get('/usage')).body.data.avatars.cap;
    const png = await (await portrait(400, 400)).png().toBuffer();
    const made = [];
    for (let i = 0; i < cap; i++) made.push((await upload(api, png)).body.data);
    expect((await api.get('/usage')).body.data.avatars).toEqual({ used: cap, cap, remaining: 0 });

    const refused = await upload(api, png);
    expectError(refused, 402, 'avatars_full');
    expect(refused.body.error).toContain(`at most ${cap} avatars`);
    // Refused before the AI-helper budget is spent: the free plan allows 5 a minute.
    for (let i = 0; i < 6; i++) expectError(await api.post('/avatars', { prompt: 'a smiling woman' }), 402, 'avatars_full');
    // A full account still has every stock avatar: they are not counted against the cap.
    expect(await listedIds(api)).toEqual([...STOCK_IDS, ...made.map((a) => a.id).reverse()]);

    await api.delete(`/avatars/${made[0].id}`);
    expect((await upload(api, png)).status).toBe(201);
  });
});

describe('listing, reading and deleting avatars', () => {
  test('the full list newest first without meta; GET by id; DELETE removes record and image', async () => {
    const { accountId, api } = await t.newAccount();
    const png = await (await portrait(400, 400)).png().toBuffer();
    const first = (await upload(api, png)).body.data;
    const second = (await upload(api, png)).body.data;
    const listed = await api.get('/avatars');
    expect(listed.body.meta).toBeUndefined();
    expect(listed.body.data.map((a: { id: number }) => a.id)).toEqual([...STOCK_IDS, second.id, first.id]);
    expect(listed.body.data.map((a: { stock: boolean }) => a.stock)).toEqual([...STOCK_IDS.map(() => true), false, false]);
    expect((await api.get(`/avatars/${first.id}`)).body.data.id).toBe(first.id);
    expectError(await api.get('/avatars/abc'), 400, 'bad_request');

    expect((await api.delete(`/avatars/${first.id}`)).body).toEqual({ data: { id: first.id, deleted: true } });
    expectError(await api.get(`/avatars/${first.id}`), 404, 'not_found');
    expect(await listKeys(`accounts/${accountId}/avatars/${first.id}/`)).toEqual([]);
    expect(await listKeys(`accounts/${accountId}/avatars/${second.id}/`)).not.toEqual([]);
  });

  test("another account's avatar is 404", async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const avatar = (await upload(owner.api, await (await portrait(400, 400)).png().toBuffer())).body.data;
    expectError(await stranger.api.get(`/avatars/${avatar.id}`), 404, 'not_found');
    expectError(await stranger.api.delete(`/avatars/${avatar.id}`), 404, 'not_found');
  });
});

describe('generating an avatar from a prompt', () => {
  test('the local engine answers 201 with a ready portrait', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/avatars', { prompt: 'a bald man with glasses and a grey beard' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'prompt', status: 'ready', prompt: 'a bald man with glasses and a grey beard' });
    const image = await fetch(res.body.data.image_url);
    expect(image.status).toBe(200);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta.width).toBeGreaterThanOrEqual(512);
  });

  test.each([
    ['an empty prompt', { prompt: '' }],
    ['a blank prompt', { prompt: '    ' }],
    ['a pure-emoji prompt', { prompt: '😱😱😱🔥' }],
    ['a huge prompt', { prompt: 'a person '.repeat(200) }],
    ['a prompt that is not a string', { prompt: 42 }],
    ['no prompt at all', {}],
    ['an unknown field', { prompt: 'a woman', style: 'anime' }],
  ])('%s is 400 and does not use the AI-helper budget', async (_label, body) => {
    const { accountId, api } = await t.newAccount({ plan: 'free' });
    for (let i = 0; i < 6; i++) expectError(await api.post('/avatars', body), 400, 'bad_request');
    await expectNothingStored(accountId, api);
  });

  test('prompt generations share the AI-helper budget with hooks', async () => {
    const { api } = await t.newAccount({ plan: 'free' });
    const product = (await api.post('/products', { name: 'Shared' })).body.data;
    for (let i = 0; i < 3; i++) expect((await api.post('/hooks', { product_id: product.id })).status).toBe(200);
    expect((await api.post('/avatars', { prompt: 'a smiling woman with curly red hair' })).status).toBe(201);
    expect((await api.post('/avatars', { prompt: 'a teenager with a cap' })).status).toBe(201);
    expectError(await api.post('/avatars', { prompt: 'an old man' }), 429, 'rate_limited');
  });
});

describe('stock avatars', () => {
  test('a brand-new account lists them first, stock and ready, each portrait a playable 1024x1024 PNG; every account has the same ones', async () => {
    const { api } = await t.newAccount();
    const listed = (await api.get('/avatars')).body.data;
    expect(listed.map((a: { id: number }) => a.id)).toEqual(STOCK_IDS);
    for (const avatar of listed) {
      expect(avatar).toMatchObject({ stock: true, status: 'ready', source: 'prompt', width: 1024, height: 1024, error: null, image_url: expect.stringMatching(/^http/) });
      const image = await fetch(avatar.image_url);
      expect({ status: image.status, type: image.headers.get('content-type') }).toEqual({ status: 200, type: 'image/png' });
      expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ width: 1024, height: 1024 });
    }
    expect((await api.get(`/avatars/${STOCK_IDS[0]}`)).body.data).toMatchObject({ id: STOCK_IDS[0], stock: true });
    const other = await t.newAccount();
    expect(await listedIds(other.api)).toEqual(STOCK_IDS);
    expect((await api.get('/usage')).body.data.avatars.used).toBe(0);
  });

  test('cannot be deleted: 409 conflict in the envelope, saying why, and they stay', async () => {
    const { api } = await t.newAccount();
    const refused = await api.delete(`/avatars/${STOCK_IDS[1]}`);
    expectError(refused, 409, 'conflict');
    expect(refused.body.error).toMatch(/stock avatar/);
    expect(await listedIds(api)).toEqual(STOCK_IDS);
    expect((await api.get(`/avatars/${STOCK_IDS[1]}`)).status).toBe(200);
  });

  test("a brand-new account's first run reaches a video: the sample product, a stock avatar, a job done", async () => {
    const { api } = await t.newAccount();
    const product = (await api.post('/products/sample')).body.data;
    // Ready at once once this stack has the clip; the stack's first waits for the worker.
    await t.stack.tasks.idle();
    const [stock] = (await api.get('/avatars')).body.data;
    const created = await api.post('/videos', { product_id: product.id, method: 'prompt', prompt: 'amazed by a twelve-day streak', avatar_id: stock.id, hook_text: 'POV: day 12' });
    expect(created.status).toBe(202);
    const { job } = await waitForJob(api, created.body.data.id, ['done']);
    expect(job).toMatchObject({ status: 'done', avatar_id: stock.id, product_id: product.id, video_id: expect.any(Number) });
    const video = (await api.get(`/videos/${job.video_id}`)).body.data;
    const file = join(await makeTempDir(), 'video.mp4');
    expect((await download(video.url, file)).status).toBe(200);
    const media = await probe(file);
    expectCanonical(media);
    // The reaction, then the sample's whole 6 s demo.
    expect(media.durationS).toBeGreaterThan(6);
  });
});
