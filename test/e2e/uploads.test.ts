/**
 * Direct uploads against the local stack, as a client drives them: POST /uploads, the file sent with
 * Node's fetch straight to storage (s3rver here, S3 on AWS) with the form's fields, then the upload's
 * id where the file would go.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { UploadView as UploadForm } from '#domain/upload-record';
import { realFacePng } from '#bench/reference-clip';
import { faceReferenceClip } from '#test-support/jobs';
import { makeFixture } from '#test-support/media-fixtures';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());

const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);

async function newUpload(api: ApiClient, purpose: string, contentType: string, size: number): Promise<UploadForm> {
  const res = await api.post('/uploads', { purpose, content_type: contentType, size_bytes: size, filename: 'file' });
  expect(res.status).toBe(201);
  return res.body.data as UploadForm;
}

/** What a browser or script does with the answer: the form's fields, then the file as `file`. */
async function send(form: UploadForm, bytes: Buffer, contentType: string): Promise<number> {
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields ?? {})) body.append(name, value);
  body.append('file', new Blob([bytes], { type: contentType }), 'file');
  const res = await fetch(form.url, { method: form.method, body });
  await res.arrayBuffer();
  return res.status;
}

async function uploaded(api: ApiClient, purpose: string, contentType: string, bytes: Buffer, declared = bytes.length): Promise<string> {
  const form = await newUpload(api, purpose, contentType, declared);
  expect(await send(form, bytes, contentType)).toBe(204);
  return form.id;
}

/** A real face: an avatar upload must show one. */
const portrait = async () => sharp(await realFacePng()).resize(400, 500, { fit: 'fill' }).jpeg().toBuffer();

describe('POST /uploads', () => {
  test('answers a presigned POST form for the account prefix, an hour long', async () => {
    const { api, accountId } = await t.newAccount();
    const before = Date.now();
    const form = await newUpload(api, 'demo_video', 'video/mp4', 1234);
    expect(form).toMatchObject({ method: 'POST', url: expect.stringMatching(/^http/), max_bytes: 1234 });
    expect(form.fields).toMatchObject({ key: `uploads/${accountId}/${form.id}`, 'Content-Type': 'video/mp4', Policy: expect.any(String), 'X-Amz-Signature': expect.any(String) });
    const policy = JSON.parse(Buffer.from(form.fields!.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] };
    expect(policy.conditions).toEqual(expect.arrayContaining([['content-length-range', 1, 1234], ['eq', '$Content-Type', 'video/mp4']]));
    const lifetime = Date.parse(form.expires_at) - before;
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(61 * 60_000);
  });

  test("a page on another origin (the studio's) may send the form: storage answers the browser's CORS preflight", async () => {
    const { api } = await t.newAccount();
    const form = await newUpload(api, 'demo_video', 'video/mp4', 1234);
    const studio = new URL(t.stack.apiUrl).origin;
    const preflight = await fetch(form.url, {
      method: 'OPTIONS',
      headers: { origin: studio, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    await preflight.arrayBuffer();
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/127\.0\.0\.1:\d+)$/);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  test.each([
    ['an unknown purpose', { purpose: 'poster', content_type: 'image/png', size_bytes: 10 }, 400, 'bad_request'],
    ['a type the purpose does not take', { purpose: 'avatar_image', content_type: 'image/gif', size_bytes: 10 }, 415, 'unsupported_media_type'],
    ['a size past the purpose cap', { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 50 * 1024 * 1024 + 1 }, 413, 'payload_too_large'],
    ['a size that is not a positive integer', { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 0 }, 400, 'bad_request'],
  ])('%s is refused', async (_label, body, status, code) => {
    const { api } = await t.newAccount();
    expectError(await api.post('/uploads', body), status, code);
  });
});

describe('using an upload', () => {
  test('a demo video: the product is made from it, the upload object goes, a second use is 409', async () => {
    const { api, accountId } = await t.newAccount();
    const id = await uploaded(api, 'demo_video', 'video/mp4', await readFile(await makeFixture('vertical-mp4')));
    const res = await api.post('/products', { name: 'Glow Serum', demo_video_upload_id: id });
    expect(res.status).toBe(201);
    expect(res.body.data.demo_video).toMatchObject({ status: 'processing' });
    expect(await listKeys(`uploads/${accountId}/`)).toEqual([]);
    expectError(await api.post('/products', { name: 'Again', demo_video_upload_id: id }), 409, 'conflict');
    expect((await api.get('/products')).body.meta.total).toBe(1);
  });

  test('an avatar image, sent in a form body', async () => {
    const { api } = await t.newAccount();
    const id = await uploaded(api, 'avatar_image', 'image/jpeg', await portrait());
    const res = await api.send('POST', '/avatars', { body: `image_upload_id=${id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'upload', status: 'ready', width: 400, height: 500 });
  });

  test('a motion reference clip for POST /videos', async () => {
    const { api } = await t.newAccount();
    const avatar = (await api.post('/avatars', { image_upload_id: await uploaded(api, 'avatar_image', 'image/jpeg', await portrait()) })).body.data;
    const product = (await api.post('/products', { name: 'Lamp' })).body.data;
    const clip = await uploaded(api, 'reference_video', 'video/mp4', await readFile(await faceReferenceClip({ durationS: 3.5 })));
    const res = await api.post('/videos', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'upload', reference_video_upload_id: clip });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ method: 'motion', video_source: 'upload', reference_url: null });
  });

  test('two requests with one upload id: exactly one product is made, the other is 409', async () => {
    const { api } = await t.newAccount();
    const id = await uploaded(api, 'demo_video', 'video/mp4', await readFile(await makeFixture('vertical-mp4')));
    const answers = await Promise.all([1, 2].map((n) => api.post('/products', { name: `Racer ${n}`, demo_video_upload_id: id })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect((await api.get('/products')).body.meta.total).toBe(1);
  });

  test('bad uses are 4xx and leave nothing behind', async () => {
    const { api, accountId } = await t.newAccount();
    const other = await t.newAccount();
    const demo = await readFile(await makeFixture('vertical-mp4'));
    const foreign = await uploaded(other.api, 'demo_video', 'video/mp4', demo);
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: foreign }), 404, 'not_found');
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: '00000000-0000-4000-8000-000000000000' }), 404, 'not_found');

    const image = await uploaded(api, 'avatar_image', 'image/jpeg', await portrait());
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: image }), 400, 'bad_request');

    const neverSent = await newUpload(api, 'demo_video', 'video/mp4', demo.length);
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: neverSent.id }), 409, 'conflict');

    // s3rver does not check the policy, as S3 would: the size is checked again when the upload is used.
    const tooBig = await uploaded(api, 'demo_video', 'video/mp4', demo, demo.length - 1);
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: tooBig }), 413, 'payload_too_large');

    const notAVideo = await uploaded(api, 'demo_video', 'video/mp4', Buffer.from('not a video at all'));
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: notAVideo }), 415, 'unsupported_media_type');

    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: 'not-an-id' }), 400, 'bad_request');

    expect((await api.get('/products')).body.meta.total).toBe(0);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
    // Only the image upload, never used, is still there.
    expect(await listKeys(`uploads/${accountId}/`)).toEqual([`uploads/${accountId}/${image}`]);
  });
});

describe('linking a file instead of sending it', () => {
  test.each([
    ['a host that resolves to loopback', { demo_video_url: 'https://localhost/demo.mp4' }],
    ['plain http', { demo_video_url: 'http://example.com/demo.mp4' }],
    ['an IP address', { demo_video_url: 'https://169.254.169.254/latest/meta-data/' }],
  ])('a demo_video_url to %s is 400 and makes nothing', async (_label, link) => {
    const { api, accountId } = await t.newAccount();
    expectError(await api.post('/products', { name: 'Linked', ...link }), 400, 'bad_request');
    expect((await api.get('/products')).body.meta.total).toBe(0);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
  });

  test('an image_url to a private address is 400 and makes no avatar', async () => {
    const { api } = await t.newAccount();
    expectError(await api.post('/avatars', { image_url: 'https://localhost/me.jpg' }), 400, 'bad_request');
    // Only the stock avatars every account has.
    expect((await api.get('/avatars')).body.data.filter((a: { stock: boolean }) => !a.stock)).toEqual([]);
  });

  test('a file part, an upload id and a link are one source: two at once is 400', async () => {
    const { api } = await t.newAccount();
    const id = await uploaded(api, 'demo_video', 'video/mp4', await readFile(await makeFixture('vertical-mp4')));
    expectError(await api.post('/products', { name: 'x', demo_video_upload_id: id, demo_video_url: 'https://files.example.com/a.mp4' }), 400, 'bad_request');
    expect((await api.post('/products', { name: 'x', demo_video_upload_id: id })).status).toBe(201);
  });
});
