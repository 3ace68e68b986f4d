import { readFile } from 'node:fs/promises';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeMedia } from '#render';
import { makeFixture, makeTempDir } from '#test-support/media-fixtures';
import { download, expectCanonical, probe } from '#test-support/jobs';
import { SAMPLE_PRODUCT, SAMPLES_PREFIX } from '#domain/sample-product';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';

let t: TestStack;

/** The stack's stored objects under `prefix`. */
const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());

/** A file sent to storage through POST /uploads, as a client does; answers the upload's id. */
async function uploaded(api: ApiClient, file: string, contentType: string): Promise<string> {
  const bytes = await readFile(file);
  const form = (await api.post('/uploads', { purpose: 'demo_video', content_type: contentType, size_bytes: bytes.length })).body.data;
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields as Record<string, string>)) body.append(name, value);
  body.append('file', new Blob([bytes], { type: contentType }), 'file');
  expect((await fetch(form.url, { method: form.method, body })).status).toBe(204);
  return form.id;
}

/** The product once its demo has settled, and the demo's file as ffprobe reads it. */
async function settled(api: ApiClient, id: number) {
  await t.stack.tasks.idle();
  const product = (await api.get(`/products/${id}`)).body.data;
  const file = join(await makeTempDir(), 'demo.mp4');
  await writeFile(file, Buffer.from(await (await fetch(product.demo_video.url)).arrayBuffer()));
  const probe = await probeMedia(file);
  if (!probe.ok) throw new Error(probe.detail);
  return { product, media: probe.media };
}

async function multipart(api: ApiClient, path: string, fields: Record<string, string>, file?: { name: string; path: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.name, new Blob([await readFile(file.path)]), 'clip.mp4');
  return api.send('POST', path, { body: form });
}

describe('creating products', () => {
  test('from JSON, with name and description, answers 201 and the record', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/products', { name: 'Glow Serum', description: 'Vitamin C serum' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'Glow Serum',
      description: 'Vitamin C serum',
      demo_video: null,
      reframe: null,
      demo_start_s: null,
      demo_end_s: null,
      test: false,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  test('from a form-encoded body', async () => {
    const { api } = await t.newAccount();
    const res = await api.send('POST', '/products', {
      body: 'name=Form+Product&description=made+with+%26',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Form Product', description: 'made with &' });
  });

  test('from multipart without a demo video', async () => {
    const { api } = await t.newAccount();
    const res = await multipart(api, '/products', { name: 'Multipart Product' });
    expect(res.status).toBe(201);
    expect(res.body.data.demo_video).toBeNull();
  });

  test.each([
    ['a missing name', { description: 'x' }, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name that is not a string', { name: 42 }, 'name'],
    ['a description that is not a string', { name: 'ok', description: ['x'] }, 'description'],
    ['an unknown field', { name: 'ok', colour: 'red' }, 'colour'],
    ['a demo_video sent as JSON', { name: 'ok', demo_video: 'https://example.com/a.mp4' }, 'demo_video'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a name with a NUL byte', { name: 'Glow\u0000serum' }, 'name'],
    ['a name with a right-to-left override', { name: 'Glow \u202Emurse' }, 'name'],
    ['a name with a line break', { name: 'Glow\nserum' }, 'name'],
    ['a description with a BEL', { name: 'ok', description: 'ding\u0007' }, 'description'],
    ['a reframe that is not blur or crop', { name: 'ok', reframe: 'stretch' }, 'reframe'],
    ['a reframe without a demo', { name: 'ok', reframe: 'blur' }, 'reframe'],
    ['a trim that ends before it starts', { name: 'ok', demo_start_s: 3, demo_end_s: 2 }, 'demo_end_s'],
  ])('%s is 400 bad_request naming the field, and creates nothing', async (_label, body, param) => {
    const { api } = await t.newAccount();
    const res = await api.post('/products', body);
    expectError(res, 400, 'bad_request');
    expect(res.body).toMatchObject({ param, request_id: res.headers.get('x-request-id'), doc_url: '/api/v1/docs/errors#bad_request' });
    expect((await api.get('/products')).body.meta.total).toBe(0);
  });

  test('malformed JSON is 400, a JSON array is 400, an unknown content type is 415', async () => {
    const { api } = await t.newAccount();
    expectError(await api.send('POST', '/products', { body: '{"name": ', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
    expectError(await api.send('POST', '/products', { body: '["x"]', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
    expectError(await api.send('POST', '/products', { body: 'name=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    expect((await api.get('/products')).body.meta.total).toBe(0);
  });
});

describe('Idempotency-Key on POST /products', () => {
  const keyed = (api: ApiClient, key: string, json: unknown) => api.send('POST', '/products', { json, headers: { 'idempotency-key': key } });

  test('8 concurrent sends of one request make one product; a repeat gets its answer again, marked replayed', async () => {
    const { api } = await t.newAccount();
    const answers = await Promise.all(Array.from({ length: 8 }, () => keyed(api, 'launch-1', { name: 'Glow Serum' })));
    const made = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    expect(made.length + busy.length).toBe(8);
    expect(new Set(made.map((a) => a.body.data.id)).size).toBe(1);
    for (const refusal of busy) expect(refusal.headers.get('retry-after')).toBe('1');
    const id = made[0]!.body.data.id;
    const again = await keyed(api, 'launch-1', { name: 'Glow Serum' });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(made[0]!.headers.get('idempotent-replayed')).toBeNull();
    expect((await api.get('/products')).body.meta.total).toBe(1);
  });

  test('the same key with another body is 409 and makes nothing; another account’s same key is its own', async () => {
    const { api } = await t.newAccount();
    expect((await keyed(api, 'k-2', { name: 'One' })).status).toBe(201);
    expectError(await keyed(api, 'k-2', { name: 'Two' }), 409, 'conflict');
    expect((await api.get('/products')).body.meta.total).toBe(1);
    const other = await t.newAccount();
    expect((await keyed(other.api, 'k-2', { name: 'One' })).headers.get('idempotent-replayed')).toBeNull();
  });

  test('a refused request keeps nothing under its key: fixed and sent again with it, it is made', async () => {
    const { api } = await t.newAccount();
    expectError(await keyed(api, 'k-3', { name: '' }), 400, 'bad_request');
    expect((await keyed(api, 'k-3', { name: 'Fixed' })).status).toBe(201);
  });

  test('a multipart form sent twice (a new boundary each time) is one product; a malformed key is 400 naming the header', async () => {
    const { api } = await t.newAccount();
    const send = () => {
      const form = new FormData();
      form.append('name', 'Form Product');
      return api.send('POST', '/products', { body: form, headers: { 'idempotency-key': 'form-1' } });
    };
    const first = await send();
    const second = await send();
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const bad = await api.send('POST', '/products', { json: { name: 'x' }, headers: { 'idempotency-key': 'has space' } });
    expectError(bad, 400, 'bad_request');
    expect(bad.body.param).toBe('Idempotency-Key');
  });
});

describe('reading, updating and deleting products', () => {
  test('GET by id; a non-integer id is 400; an unknown id is 404', async () => {
    const { api } = await t.newAccount();
    const { id } = (await api.post('/products', { name: 'One' })).body.data;
    expect((await api.get(`/products/${id}`)).body.data.name).toBe('One');
    for (const bad of ['abc', '1.5', '-1', '0', '1e3', '99999999999999999999']) {
      expectError(await api.get(`/products/${bad}`), 400, 'bad_request');
    }
    expectError(await api.get('/products/987654'), 404, 'not_found');
  });

  test('PATCH and PUT change the given fields; null clears the description; an empty update is 400', async () => {
    const { api } = await t.newAccount();
    const { id } = (await api.post('/products', { name: 'Before', description: 'desc' })).body.data;
    const patched = await api.patch(`/products/${id}`, { name: 'After' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'After', description: 'desc' });
    const put = await api.put(`/products/${id}`, { description: null });
    expect(put.body.data).toMatchObject({ name: 'After', description: null });
    expectError(await api.patch(`/products/${id}`, {}), 400, 'bad_request');
    expectError(await api.patch(`/products/${id}`, { name: 7 }), 400, 'bad_request');
    expect((await api.get(`/products/${id}`)).body.data.name).toBe('After');
  });

  test('DELETE answers {id, deleted: true}, then the product is gone', async () => {
    const { api } = await t.newAccount();
    const { id } = (await api.post('/products', { name: 'Doomed' })).body.data;
    const res = await api.delete(`/products/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id, deleted: true } });
    expectError(await api.get(`/products/${id}`), 404, 'not_found');
    expectError(await api.delete(`/products/${id}`), 404, 'not_found');
  });
});

describe('conditional reads', () => {
  test('a GET answers an ETag; sent back as If-None-Match it is 304 with no body until the product changes', async () => {
    const { api } = await t.newAccount();
    const { id } = (await api.post('/products', { name: 'Glow Serum' })).body.data;
    const first = await api.get(`/products/${id}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect((await api.get(`/products/${id}`)).headers.get('etag')).toBe(etag);

    const unchanged = await api.get(`/products/${id}`, { 'if-none-match': etag });
    expect({ status: unchanged.status, body: unchanged.body, etag: unchanged.headers.get('etag') }).toEqual({ status: 304, body: undefined, etag });
    expect(unchanged.headers.get('ratelimit-remaining')).not.toBeNull();

    await api.patch(`/products/${id}`, { name: 'Glow Serum 2' });
    const changed = await api.get(`/products/${id}`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.data.name).toBe('Glow Serum 2');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('listing products', () => {
  test('is paginated newest first with meta {page, per_page, total}; a page past the end is empty', async () => {
    const { api } = await t.newAccount();
    for (const name of ['p1', 'p2', 'p3']) await api.post('/products', { name });
    const first = await api.get('/products?per_page=2');
    expect(first.body.data.map((p: { name: string }) => p.name)).toEqual(['p3', 'p2']);
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 3 });
    const second = await api.get('/products?per_page=2&page=2');
    expect(second.body.data.map((p: { name: string }) => p.name)).toEqual(['p1']);
    const past = await api.get('/products?per_page=2&page=9');
    expect(past.body).toEqual({ data: [], meta: { page: 9, per_page: 2, total: 3 } });
    expect((await api.get('/products')).body.meta).toEqual({ page: 1, per_page: 20, total: 3 });
  });

  test.each(['per_page=0', 'per_page=101', 'per_page=abc', 'page=0', 'page=-1', 'page=1.5', 'per_page='])(
    '%s is 400 bad_request',
    async (query) => {
      const { api } = await t.newAccount();
      expectError(await api.get(`/products?${query}`), 400, 'bad_request');
    },
  );
});

describe('demo videos', () => {
  test('a vertical MP4 is accepted, normalised in the background to 1080x1920 and then playable', async () => {
    const { api } = await t.newAccount();
    const res = await multipart(api, '/products', { name: 'With demo' }, { name: 'demo_video', path: await makeFixture('vertical-mp4') });
    expect(res.status).toBe(201);
    expect(res.body.data.demo_video).toMatchObject({ status: 'processing', url: null });

    await t.stack.tasks.idle();
    const ready = (await api.get(`/products/${res.body.data.id}`)).body.data.demo_video;
    expect(ready).toMatchObject({ status: 'ready', width: 1080, height: 1920, url: expect.stringMatching(/^http/) });
    expect(ready.duration_s).toBeCloseTo(2, 1);

    const download = await fetch(ready.url);
    expect(download.status).toBe(200);
    const dir = await makeTempDir();
    const file = join(dir, 'demo.mp4');
    await writeFile(file, Buffer.from(await download.arrayBuffer()));
    const probe = await probeMedia(file);
    expect(probe.ok && probe.media.video).toMatchObject({ codec: 'h264', width: 1080, height: 1920 });
  });

  test('a clip that is vertical only through its rotation metadata is accepted', async () => {
    const { api } = await t.newAccount();
    const res = await multipart(api, '/products', { name: 'Rotated' }, { name: 'demo_video', path: await makeFixture('rotated-mp4') });
    expect(res.status).toBe(201);
  });

  test.each([
    ['horizontal-mp4', 422, 'invalid_media'],
    ['truncated-mp4', 422, 'invalid_media'],
    ['audio-only-m4a', 422, 'invalid_media'],
    ['png-as-mp4', 415, 'unsupported_media_type'],
    ['random-bytes', 415, 'unsupported_media_type'],
  ] as const)('a %s upload is %i %s and leaves no record and no object', async (kind, status, code) => {
    const { accountId, api } = await t.newAccount();
    const res = await multipart(api, '/products', { name: 'Rejected' }, { name: 'demo_video', path: await makeFixture(kind) });
    expectError(res, status, code);
    expect((await api.get('/products')).body.meta.total).toBe(0);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
  });

  test('a body over the route limit is 413 before it is read; a file over 50 MB is 413', async () => {
    const { accountId, api } = await t.newAccount();
    const huge = await api.send('POST', '/products', {
      body: Buffer.alloc(60 * 1024 * 1024),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    }).catch((error) => ({ status: 0, error }));
    // Either we read the 413, or the server closed the socket while the client was still sending.
    if (huge.status !== 0) expect(huge.status).toBe(413);

    const dir = await makeTempDir();
    const big = join(dir, 'big.mp4');
    await writeFile(big, Buffer.alloc(50 * 1024 * 1024 + 10));
    expectError(await multipart(api, '/products', { name: 'Big' }, { name: 'demo_video', path: big }), 413, 'payload_too_large');
    expect((await api.get('/products')).body.meta.total).toBe(0);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
  });

  test('a JSON body over 256 KB is 413; repeated or unknown file parts are 400', async () => {
    const { api } = await t.newAccount();
    expectError(await api.post('/products', { name: 'x', description: 'y'.repeat(300 * 1024) }), 413, 'payload_too_large');

    const clip = await makeFixture('vertical-mp4');
    const twice = new FormData();
    twice.append('name', 'Twice');
    twice.append('demo_video', new Blob([await readFile(clip)]), 'a.mp4');
    twice.append('demo_video', new Blob([await readFile(clip)]), 'b.mp4');
    expectError(await api.send('POST', '/products', { body: twice }), 400, 'bad_request');

    const stray = new FormData();
    stray.append('name', 'Stray');
    stray.append('poster', new Blob([await readFile(clip)]), 'p.jpg');
    expectError(await api.send('POST', '/products', { body: stray }), 400, 'bad_request');

    const named = new FormData();
    named.append('name', 'One');
    named.append('name', 'Two');
    expectError(await api.send('POST', '/products', { body: named }), 400, 'bad_request');
    expect((await api.get('/products')).body.meta.total).toBe(0);
  });

  test('a truncated multipart body is 400 and creates nothing', async () => {
    const { api } = await t.newAccount();
    const boundary = 'XyZ';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nHalf\r\n--${boundary}\r\nContent-Disposition: form-data; name="demo_video"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n\0\0\0 ftypisom`;
    const res = await api.send('POST', '/products', { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expectError(res, 400, 'bad_request');
    expect((await api.get('/products')).body.meta.total).toBe(0);
  });

  test('a landscape WebM (VP9, Opus) sent with reframe crop and a trim becomes a 1080x1920 demo of the part kept', async () => {
    const { api } = await t.newAccount();
    const fields = { name: 'Landscape', reframe: 'crop', demo_start_s: '0.5', demo_end_s: '1.5' };
    const res = await multipart(api, '/products', fields, { name: 'demo_video', path: await makeFixture('landscape-webm') });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ reframe: 'crop', demo_start_s: 0.5, demo_end_s: 1.5, demo_video: { status: 'processing' } });

    const { product, media } = await settled(api, res.body.data.id);
    expect(product).toMatchObject({ reframe: 'crop', demo_start_s: 0.5, demo_end_s: 1.5, demo_video: { status: 'ready', width: 1080, height: 1920, duration_s: 1 } });
    expect(media.video).toMatchObject({ codec: 'h264', displayWidth: 1080, displayHeight: 1920, frameCount: 30 });
  });

  test('a landscape demo without reframe is 422 naming the option, and its direct upload stays: sent again with reframe blur it is taken', async () => {
    const { accountId, api } = await t.newAccount();
    const uploadId = await uploaded(api, await makeFixture('landscape-webm'), 'video/webm');
    const refused = await api.post('/products', { name: 'Landscape', demo_video_upload_id: uploadId });
    expectError(refused, 422, 'invalid_media');
    expect(refused.body).toMatchObject({ param: 'reframe', error: 'demo_video must be vertical (portrait, taller than wide); got 1280x720; send reframe: "blur" or "crop" to reframe it' });
    expect((await api.get('/products')).body.meta.total).toBe(0);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);

    const res = await api.post('/products', { name: 'Landscape', demo_video_upload_id: uploadId, reframe: 'blur', demo_end_s: 1 });
    expect(res.status).toBe(201);
    const { product, media } = await settled(api, res.body.data.id);
    expect(product).toMatchObject({ reframe: 'blur', demo_start_s: null, demo_end_s: 1, demo_video: { status: 'ready', width: 1080, height: 1920, duration_s: 1 } });
    expect(media.video).toMatchObject({ displayWidth: 1080, displayHeight: 1920, frameCount: 30 });
  });

  test('a trim that ends past the demo is 400 naming demo_end_s and the demo\'s length, and makes nothing', async () => {
    const { accountId, api } = await t.newAccount();
    const res = await multipart(api, '/products', { name: 'Short', demo_end_s: '5' }, { name: 'demo_video', path: await makeFixture('vertical-mp4') });
    expectError(res, 400, 'bad_request');
    expect(res.body).toMatchObject({ param: 'demo_end_s', error: 'demo_end_s is 5 s but demo_video is 2 s long' });
    expect((await api.get('/products')).body.meta.total).toBe(0);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
  });

  test('deleting a product removes its objects', async () => {
    const { accountId, api } = await t.newAccount();
    const res = await multipart(api, '/products', { name: 'Gone soon' }, { name: 'demo_video', path: await makeFixture('vertical-mp4') });
    await t.stack.tasks.idle();
    expect(await listKeys(`accounts/${accountId}/products/${res.body.data.id}/`)).not.toEqual([]);
    expect((await api.delete(`/products/${res.body.data.id}`)).status).toBe(200);
    expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
  });
});

describe('the sample product (POST /products/sample)', () => {
  /** The stored clips every sample product is copied from: one per stack. */
  const sharedClips = () => listKeys(`${SAMPLES_PREFIX}demo/`);

  test("makes a product like any other from a built-in 6 s 1080x1920 clip: the stack's first waits for the clip, a second call is a copy, ready at once", async () => {
    const { api, accountId } = await t.newAccount();
    const first = await api.post('/products/sample');
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ name: SAMPLE_PRODUCT.name, description: SAMPLE_PRODUCT.description, demo_video: { status: 'processing', url: null } });

    // The stack's first: the worker makes the clip, then gives the product its copy.
    await t.stack.tasks.idle();
    const ready = (await api.get(`/products/${first.body.data.id}`)).body.data.demo_video;
    expect(ready).toMatchObject({ status: 'ready', width: 1080, height: 1920, duration_s: 6, error: null, url: expect.stringMatching(/^http/) });
    const file = join(await makeTempDir(), 'sample.mp4');
    const served = await download(ready.url, file);
    expect(served.status).toBe(200);
    const media = await probe(file);
    expectCanonical(media);
    expect(media.durationS).toBeCloseTo(6, 1);
    expect(await sharedClips()).toHaveLength(1);

    // Cheap from now on: a server-side copy within the request, the answer already ready.
    const second = await api.post('/products/sample');
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.demo_video).toMatchObject({ status: 'ready', width: 1080, height: 1920, duration_s: 6, url: expect.stringMatching(/^http/) });
    expect(await sharedClips()).toHaveLength(1);

    // Listed and counted as any product; deleting one leaves the other's own copy and the shared clip.
    const listed = await api.get('/products');
    expect(listed.body.meta.total).toBe(2);
    expect(listed.body.data.map((p: { id: number }) => p.id)).toEqual([second.body.data.id, first.body.data.id]);
    expect((await api.delete(`/products/${first.body.data.id}`)).body).toEqual({ data: { id: first.body.data.id, deleted: true } });
    expect(await listKeys(`accounts/${accountId}/products/${first.body.data.id}/`)).toEqual([]);
    expect((await fetch(second.body.data.demo_video.url)).status).toBe(200);
    expect(await sharedClips()).toHaveLength(1);
  });

  test('another account gets its own sample product, ready at once', async () => {
    const { api } = await t.newAccount();
    const made = await api.post('/products/sample');
    expect(made.status).toBe(201);
    expect(made.body.data.demo_video.status).toBe('ready');
    expect((await api.get('/products')).body.meta.total).toBe(1);
  });

  test('takes no fields: no body, an empty JSON object or an empty form are all the same request', async () => {
    const { api } = await t.newAccount();
    expect((await api.send('POST', '/products/sample')).status).toBe(201);
    expect((await api.post('/products/sample', {})).status).toBe(201);
    expect((await api.send('POST', '/products/sample', { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(201);
    expect((await api.get('/products')).body.meta.total).toBe(3);
  });

  test.each([
    ['a field (a name of its own)', { json: { name: 'My product' } }, 400, 'bad_request'],
    ['a demo link', { json: { demo_video_url: 'https://example.com/demo.mp4' } }, 400, 'bad_request'],
    ['malformed JSON', { body: '{"name": ', headers: { 'content-type': 'application/json' } }, 400, 'bad_request'],
    ['a JSON array', { body: '[]', headers: { 'content-type': 'application/json' } }, 400, 'bad_request'],
    ['a multipart form', { body: (() => { const form = new FormData(); form.append('name', 'x'); return form; })() }, 415, 'unsupported_media_type'],
    ['text/plain', { body: 'sample', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
    ['a body over 1 KB', { json: { padding: 'x'.repeat(2000) } }, 413, 'payload_too_large'],
  ])('%s is refused in the envelope and makes nothing', async (_label, init, status, code) => {
    const { api } = await t.newAccount();
    expectError(await api.send('POST', '/products/sample', init), status, code);
    expect((await api.get('/products')).body.meta.total).toBe(0);
  });

  test('an Idempotency-Key makes one product of repeats, the repeat marked replayed', async () => {
    const { api } = await t.newAccount();
    const keyed = () => api.send('POST', '/products/sample', { headers: { 'idempotency-key': 'first-run-1' } });
    const made = await keyed();
    const again = await keyed();
    expect(made.status).toBe(201);
    expect(again.body.data.id).toBe(made.body.data.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get('/products')).body.meta.total).toBe(1);
  });
});
