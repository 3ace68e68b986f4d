/**
 * Dry runs (`?dry_run=true`) of POST /videos and regenerate through the local HTTP server: the quote
 * when every check passes, the real request's own error when one fails, and nothing left behind (no
 * job, no unit, no claimed upload, no request counted against the rate limit). Jobs that only need to
 * exist are started by a runner that does nothing, so they hold their unit without rendering.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { UploadView as UploadForm } from '#domain/upload-record';
import { estimatedSeconds } from '#domain/quote';
import { realFacePng } from '#bench/reference-clip';
import { expectError, startTestStack, type ApiClient, type ApiResponse, type TestStack } from '#test-support/local-stack';
import { faceReferenceClip, waitForJob } from '#test-support/jobs';

const JOB_TEST_MS = 300_000;
let t: TestStack;

beforeAll(async () => {
  t = await startTestStack();
}, 240_000);

afterEach(async () => {
  t.runner.reset();
  await t?.stack.jobs.idle();
});

afterAll(() => t?.stop());


const customer = (plan: 'free' | 'pro' = 'free') => t.newCustomer(plan);
const holdJobs = () => t.holdJobs();

const DRY = '?dry_run=true';
const allowance = async (api: ApiClient) => (await api.get('/usage')).body.data.allowance as { limit: number; used: number; reserved: number; remaining: number };
const jobIds = async (api: ApiClient) => ((await api.get('/videos/jobs')).body.data as { id: number }[]).map((job) => job.id);
const prompt = (productId: number) => ({ product_id: productId, method: 'prompt', mode: 'auto', prompt: 'shocked by the price' });

/** A direct upload of a reference clip, its file sent to storage: its id. */
async function uploadedClip(api: ApiClient): Promise<string> {
  const bytes = await readFile(await faceReferenceClip({ durationS: 3.5 }));
  const res = await api.post('/uploads', { purpose: 'reference_video', content_type: 'video/mp4', size_bytes: bytes.length, filename: 'clip.mp4' });
  expect(res.status).toBe(201);
  const form = res.body.data as UploadForm;
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields ?? {})) body.append(name, value);
  body.append('file', new Blob([bytes], { type: 'video/mp4' }), 'file');
  const sent = await fetch(form.url, { method: form.method, body });
  await sent.arrayBuffer();
  expect(sent.status).toBe(204);
  return form.id;
}

async function readyAvatar(api: ApiClient): Promise<number> {
  const portrait = await sharp(await realFacePng()).resize(400, 500, { fit: 'fill' }).jpeg().toBuffer();
  const form = new FormData();
  form.append('image', new Blob([portrait]), 'face.jpg');
  const res = await api.send('POST', '/avatars', { body: form });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The dry run refused exactly as the real request then is. */
async function expectSameRefusal(dry: () => Promise<ApiResponse>, real: () => Promise<ApiResponse>, status: number, code: string) {
  expectError(await dry(), status, code);
  expectError(await real(), status, code);
}

describe('POST /videos?dry_run=true', () => {
  test('answers the quote and leaves usage, the job list and the rate limit as they were', async () => {
    const { api, productId } = await customer();
    const before = await api.get('/usage');
    const remainingBefore = Number(before.headers.get('ratelimit-remaining'));

    const quotes = [];
    for (let i = 0; i < 5; i++) quotes.push(await api.post(`/videos${DRY}`, prompt(productId)));
    for (const quote of quotes) {
      expect(quote.status).toBe(200);
      expect(quote.body).toEqual({
        data: { valid: true, units: 1, allowance: { limit: 3, used: 0, reserved: 0, remaining: 3 }, estimated_seconds: estimatedSeconds('prompt', 'auto') },
      });
      // The headers are there, and no dry run took anything from the budget.
      expect(Number(quote.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(remainingBefore);
    }
    expect(await jobIds(api)).toEqual([]);
    const after = await api.get('/usage');
    expect(after.body.data.allowance).toEqual(before.body.data.allowance);
    // The GET /videos/jobs above counted; the five dry runs did not.
    expect(Number(after.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(remainingBefore - 2);
  });

  test('dry_run is true or false; anything else is 400 and nothing is made', async () => {
    const { api, productId } = await customer();
    expectError(await api.post('/videos?dry_run=yes', prompt(productId)), 400, 'bad_request');
    expectError(await api.post('/videos?dry_run=1', prompt(productId)), 400, 'bad_request');
    expect(await jobIds(api)).toEqual([]);
    holdJobs();
    expect((await api.post('/videos?dry_run=false', prompt(productId))).status).toBe(202);
    expect(await jobIds(api)).toHaveLength(1);
  });

  test('a reference upload is checked but not claimed: the same upload id then makes the real job', async () => {
    const { api, productId } = await customer('pro');
    const avatarId = await readyAvatar(api);
    const clip = await uploadedClip(api);
    const body = { product_id: productId, method: 'motion', mode: 'auto', avatar_id: avatarId, video_source: 'upload', reference_video_upload_id: clip };
    const quote = await api.post(`/videos${DRY}`, body);
    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({ valid: true, units: 1, estimated_seconds: estimatedSeconds('motion', 'auto') });
    expect(await api.post(`/videos${DRY}`, body)).toMatchObject({ status: 200 });
    holdJobs();
    const created = await api.post('/videos', body);
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({ method: 'motion', video_source: 'upload' });
    // Used now: the dry run says so as the real create does.
    await expectSameRefusal(() => api.post(`/videos${DRY}`, body), () => api.post('/videos', body), 409, 'conflict');
  });

  test('each failing check answers what the real create answers', async () => {
    const { api, productId } = await customer();
    const both = (body: unknown, status: number, code: string) => expectSameRefusal(() => api.post(`/videos${DRY}`, body), () => api.post('/videos', body), status, code);
    await both({ ...prompt(productId), product_id: 999_999 }, 404, 'not_found');
    await both({ product_id: productId, method: 'prompt' }, 400, 'bad_request');
    await both({ ...prompt(productId), surprise: true }, 400, 'bad_request');
    await both({ ...prompt(productId), avatar_id: 999_999 }, 404, 'not_found');
    await both({ product_id: productId, method: 'reuse', reaction_id: 999_999 }, 404, 'not_found');
    await both({ product_id: productId, method: 'motion', avatar_id: await readyAvatar(api), video_source: 'upload', reference_video_upload_id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
    await both({ product_id: productId, method: 'motion', avatar_id: 1, video_source: 'upload', reference_video_upload_id: 'nope' }, 400, 'bad_request');
    expectError(await api.send('POST', `/videos${DRY}`, { json: prompt(productId), headers: { 'idempotency-key': 'has space' } }), 400, 'bad_request');

    holdJobs();
    for (let i = 0; i < 3; i++) expect((await api.post('/videos', prompt(productId))).status).toBe(202);
    await both(prompt(productId), 402, 'allowance_exhausted');
    expect(await allowance(api)).toEqual({ limit: 3, used: 0, reserved: 3, remaining: 0 });
  });

  test('an Idempotency-Key already used: the same request quotes 0 units, another request is 409 as for the create', async () => {
    const { api, productId } = await customer();
    holdJobs();
    const withKey = (path: string, body: unknown) => api.send('POST', path, { json: body, headers: { 'idempotency-key': 'order-7' } });
    expect((await withKey(`/videos${DRY}`, prompt(productId))).body.data).toMatchObject({ units: 1 });
    expect((await withKey('/videos', prompt(productId))).status).toBe(202);
    expect((await withKey(`/videos${DRY}`, prompt(productId))).body.data).toMatchObject({ units: 0, allowance: { reserved: 1 } });
    const other = { ...prompt(productId), prompt: 'amazed' };
    await expectSameRefusal(() => withKey(`/videos${DRY}`, other), () => withKey('/videos', other), 409, 'conflict');
  });

  test('10 concurrent dry runs and 1 real create with one unit left: the create succeeds once, one more unit is taken', async () => {
    const { api, productId } = await customer();
    holdJobs();
    for (let i = 0; i < 2; i++) expect((await api.post('/videos', prompt(productId))).status).toBe(202);
    const [real, ...dry] = await Promise.all([api.post('/videos', prompt(productId)), ...Array.from({ length: 10 }, () => api.post(`/videos${DRY}`, prompt(productId)))]);
    expect(real!.status).toBe(202);
    // A dry run answered before the create reserved sees the unit; one after it sees none.
    for (const answer of dry) {
      if (answer.status === 200) expect(answer.body.data).toMatchObject({ units: 1 });
      else expectError(answer, 402, 'allowance_exhausted');
    }
    expect(await allowance(api)).toEqual({ limit: 3, used: 0, reserved: 3, remaining: 0 });
    expect(await jobIds(api)).toHaveLength(3);
    await expectSameRefusal(() => api.post(`/videos${DRY}`, prompt(productId)), () => api.post('/videos', prompt(productId)), 402, 'allowance_exhausted');
  });
});

describe('POST /videos/jobs/{id}/regenerate?dry_run=true', () => {
  test(
    'at preview_ready: one unit quoted, the job still waiting; then 402 as for the real regenerate once the allowance is used up',
    async () => {
      const { api, productId } = await customer();
      const created = await api.post('/videos', { ...prompt(productId), mode: 'preview' });
      expect(created.status).toBe(202);
      const jobId = created.body.data.id as number;
      await waitForJob(api, jobId, ['preview_ready']);
      const usage = await allowance(api);
      expect(usage).toMatchObject({ used: 1, reserved: 0 });

      const quote = await api.post(`/videos/jobs/${jobId}/regenerate${DRY}`, { prompt: 'now laughing' });
      expect(quote.status).toBe(200);
      expect(quote.body.data).toEqual({ valid: true, units: 1, allowance: usage, estimated_seconds: estimatedSeconds('prompt', 'preview') });
      const job = (await api.get(`/videos/jobs/${jobId}`)).body.data;
      expect(job).toMatchObject({ status: 'preview_ready', regenerations: 0, prompt: 'shocked by the price' });
      expect(await allowance(api)).toEqual(usage);

      holdJobs();
      for (let i = 0; i < 2; i++) expect((await api.post('/videos', prompt(productId))).status).toBe(202);
      await expectSameRefusal(
        () => api.post(`/videos/jobs/${jobId}/regenerate${DRY}`, {}),
        () => api.post(`/videos/jobs/${jobId}/regenerate`, {}),
        402,
        'allowance_exhausted',
      );
      expect((await api.get(`/videos/jobs/${jobId}`)).body.data).toMatchObject({ status: 'preview_ready', regenerations: 0 });
    },
    JOB_TEST_MS,
  );

  test('409 off preview_ready and 404 for an unknown job, as for the real regenerate', async () => {
    const { api, productId } = await customer();
    holdJobs();
    const queued = (await api.post('/videos', { ...prompt(productId), mode: 'preview' })).body.data.id as number;
    const both = (id: number, status: number, code: string) =>
      expectSameRefusal(() => api.post(`/videos/jobs/${id}/regenerate${DRY}`, {}), () => api.post(`/videos/jobs/${id}/regenerate`, {}), status, code);
    await both(queued, 409, 'conflict');
    await both(999_999, 404, 'not_found');
    expectError(await api.post(`/videos/jobs/${queued}/regenerate?dry_run=maybe`, {}), 400, 'bad_request');
    expect(await allowance(api)).toMatchObject({ reserved: 1 });
  });
});
