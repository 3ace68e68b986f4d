/**
 * The TypeScript client against the real local stack (DynamoDB Local, s3rver, the HTTP server, the
 * in-process job runner with the local engine and ffmpeg), used as a customer would: a product with
 * a demo upload, an auto job waited for with progress callbacks, the finished video downloaded;
 * idempotent creation across a lost answer; a 429 waited out; errors as ApiError.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { ApiError, createClient, type FetchLike, type Job, type ReactionStudioClient, type RetryEvent } from '#client/index';
import { fileFromPath } from '#client/node';
import { makeFixture } from '#test-support/media-fixtures';
import { startTestStack, type TestStack } from '#test-support/local-stack';
import { realFacePng } from '#bench/reference-clip';
import { expectProgressNeverDecreases, faceReferenceClip } from '#test-support/jobs';

/** A job renders a few seconds of reaction and composes it with the demo on 2 shared cores. */
const JOB_TEST_MS = 300_000;

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
}, 120_000);
afterEach(async () => {
  t?.runner.reset();
  await t?.stack.jobs.idle();
});
afterAll(() => t?.stop());

/** A fresh account (its own allowance and rate window) and a client for it over `fetch`. */
async function customer(fetch?: FetchLike, onRetry?: (event: RetryEvent) => void): Promise<{ rs: ReactionStudioClient; accountId: number }> {
  const { accountId, key } = await t.newAccount();
  return { accountId, rs: createClient({ baseUrl: t.stack.apiUrl, apiKey: key, fetch, retry: { onRetry } }) };
}

test('a demo sent straight to storage (POST /uploads, then the form) makes a product whose demo is normalised', async () => {
  const { rs } = await customer();
  const upload = await rs.uploadFile('demo_video', await fileFromPath(await makeFixture('vertical-mp4')), { contentType: 'video/mp4' });
  const product = await rs.createProduct({ name: 'Glow Serum', demo_video_upload_id: upload.id });
  expect(product.demo_video?.status).toBe('processing');
  expect((await rs.waitForDemo(product.id, { intervalMs: 500, timeoutMs: 120_000 })).demo_video?.status).toBe('ready');
  // Used once: the same id again is a 409.
  await expect(rs.createProduct({ name: 'Again', demo_video_upload_id: upload.id })).rejects.toMatchObject({ status: 409, code: 'conflict' });
}, 180_000);

test(
  'a full video job: product with a demo upload, POST /videos auto, waitForJob with progress over the live-updates socket, a playable video',
  async () => {
    const sent: string[] = [];
    const { rs } = await customer((request) => (sent.push(`${request.method} ${new URL(request.url).pathname}`), globalThis.fetch(request)));
    const product = await rs.createProduct({ name: 'Glow Serum', demoVideo: await fileFromPath(await makeFixture('vertical-mp4')) });
    expect(product.demo_video?.status).toBe('processing');
    expect((await rs.waitForDemo(product.id, { intervalMs: 500, timeoutMs: 120_000 })).demo_video?.status).toBe('ready');

    const job = await rs.createVideoJob({ product_id: product.id, method: 'prompt', prompt: 'shocked by the price', hook_text: 'Wait for it 😱' });
    expect(job).toMatchObject({ status: 'queued', mode: 'auto', product_id: product.id });

    const reports: Job[] = [];
    const done = await rs.waitForJob(job.id, { intervalMs: 500, timeoutMs: 240_000, onProgress: (j) => reports.push(j) });
    expect(done).toMatchObject({ id: job.id, status: 'done', stage: 'done', progress: 100, error: null });
    expect(reports.at(-1)).toEqual(done);
    // Each report is a change, and progress only ever rises.
    expect(reports.length).toBeGreaterThan(1);
    for (let i = 1; i < reports.length; i++) {
      const [a, b] = [reports[i - 1]!, reports[i]!];
      expect([a.status, a.stage, a.progress, a.queue_position]).not.toEqual([b.status, b.stage, b.progress, b.queue_position]);
    }
    expectProgressNeverDecreases(reports);
    // Node 22 has a WebSocket: the waits followed the socket, and nothing polled the job.
    expect(sent).toContain('POST /api/v1/updates/tickets');
    expect(sent.filter((line) => line === `GET /api/v1/videos/jobs/${job.id}`)).toEqual([]);

    const video = await rs.getVideo(done.video_id!);
    expect(video).toMatchObject({ job_id: job.id, product_id: product.id });
    const mp4 = await fetch(video.url);
    expect(mp4.status).toBe(200);
    expect(Buffer.from(await mp4.arrayBuffer()).subarray(4, 8).toString('latin1')).toBe('ftyp');
  },
  JOB_TEST_MS,
);

/** Jobs created with this runner are only recorded: nothing renders, so no render competes with the other tests. */
const idleRunner = { start: async () => undefined, sendDecision: async () => undefined };

test('uploads the API accepts: an avatar from an image Buffer, a motion job with a reference clip Blob', async () => {
  t.runner.use(idleRunner);
  const { rs } = await customer();
  const portrait = await sharp(await realFacePng()).resize(400, 400).png().toBuffer();
  const avatar = await rs.createAvatar({ image: portrait });
  expect(avatar).toMatchObject({ source: 'upload', status: 'ready', width: 400, height: 400 });

  const product = await rs.createProduct({ name: 'No demo' });
  const clip = new Blob([await readFile(await faceReferenceClip({ durationS: 3.5 }))]);
  const job = await rs.createVideoJob({ product_id: product.id, method: 'motion', avatar_id: avatar.id, referenceVideo: clip });
  expect(job).toMatchObject({ status: 'queued', method: 'motion', avatar_id: avatar.id, video_source: 'upload', reference_url: null });
});

describe('idempotent job creation', () => {
  test('the same Idempotency-Key returns the same job and reserves one unit', async () => {
    t.runner.use(idleRunner);
    const { rs } = await customer();
    const product = await rs.createProduct({ name: 'No demo' });
    const input = { product_id: product.id, method: 'prompt', prompt: 'laughing', idempotencyKey: `order-${product.id}` } as const;
    const [first, second] = [await rs.createVideoJob(input), await rs.createVideoJob(input)];
    expect(second.id).toBe(first.id);
    const { data: usage } = await rs.GET('/usage');
    expect(usage?.data.allowance).toMatchObject({ used: 0, reserved: 1 });
  });

  test('an answer lost on the way back is retried with the key the client made, and finds the first job', async () => {
    t.runner.use(idleRunner);
    let lost = 0;
    // The request reaches the API and the job is made; the client sees a dropped connection.
    const dropFirstAnswer: FetchLike = async (request) => {
      const response = await fetch(request);
      if (request.method === 'POST' && request.url.endsWith('/videos') && lost++ === 0) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const retries: RetryEvent[] = [];
    const { rs } = await customer(dropFirstAnswer, (event) => retries.push(event));
    const product = await rs.createProduct({ name: 'No demo' });

    const job = await rs.createVideoJob({ product_id: product.id, method: 'prompt', prompt: 'in love' });
    expect(retries.map((r) => [r.attempt, r.status, r.error instanceof TypeError])).toEqual([[1, undefined, true]]);
    expect(lost).toBe(2);
    const { data: usage } = await rs.GET('/usage');
    expect(usage?.data.allowance).toMatchObject({ reserved: 1 });
    expect((await rs.getJob(job.id)).id).toBe(job.id);
  });
});

test('a batch gets an Idempotency-Key of its own, so an answer lost on the way back is retried into the same batch', async () => {
  t.runner.use(idleRunner);
  let lost = 0;
  const dropFirstAnswer: FetchLike = async (request) => {
    const response = await fetch(request);
    if (request.method === 'POST' && request.url.endsWith('/videos/batch') && lost++ === 0) throw new TypeError('fetch failed: socket hang up');
    return response;
  };
  const { rs } = await customer(dropFirstAnswer);
  const product = await rs.createProduct({ name: 'No demo' });
  const batch = await rs.createVideoBatch({ product_id: product.id, variants: [{ method: 'prompt', prompt: 'in love' }, { method: 'prompt', prompt: 'amazed' }] });
  expect(lost).toBe(2);
  expect(batch.counts.queued).toBe(2);
  expect((await rs.getVideoBatch(batch.id)).jobs.map((job) => job.id)).toEqual(batch.jobs.map((job) => job.id));
  const { data: usage } = await rs.GET('/usage');
  expect(usage?.data.allowance).toMatchObject({ reserved: 2 });
});

test('a 429 is waited out for its Retry-After and the call then succeeds', async () => {
  // The API's limit is 120 a minute, so its own Retry-After can be a minute long; this double
  // answers the first request as the API does when the window is full, with a short wait.
  let refused = 0;
  const rateLimitedOnce: FetchLike = async (request) => {
    if (refused++ > 0) return fetch(request);
    return new Response(JSON.stringify({ error: 'Rate limit exceeded', code: 'rate_limited' }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '1', 'x-request-id': 'double' },
    });
  };
  const retries: RetryEvent[] = [];
  const { rs } = await customer(rateLimitedOnce, (event) => retries.push(event));
  const { data, response } = await rs.GET('/usage');
  expect(response.status).toBe(200);
  expect(data?.data.plan.name).toBe('pro');
  // The wait it reports is the header's; that the retrying fetch sleeps it is retry.test.ts's subject.
  expect(retries.map((r) => [r.attempt, r.status, r.delayMs])).toEqual([[1, 429, 1000]]);
});

describe('errors are ApiError with the envelope', () => {
  test('an unknown job is 404 not_found with a request id', async () => {
    const { rs } = await customer();
    const error = await rs.getJob(987_654).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect((error as ApiError).requestId).toBeTruthy();
    expect((error as ApiError).message).toMatch(/not found/i);
  });

  test('a job for a method without its field is 400 bad_request naming it', async () => {
    const { rs } = await customer();
    const product = await rs.createProduct({ name: 'No demo' });
    // The request's type refuses this at compile time; a caller without types (JavaScript) still gets the API's 400.
    // @ts-expect-error motion needs avatar_id
    await expect(rs.createVideoJob({ product_id: product.id, method: 'motion', video_source: 'link' })).rejects.toMatchObject({
      status: 400,
      code: 'bad_request',
      message: expect.stringContaining('avatar_id'),
    });
  });

  test('a revoked or wrong key is 401 unauthorized', async () => {
    const rs = createClient({ baseUrl: t.stack.apiUrl, apiKey: 'rsk_' + 'x'.repeat(43) });
    await expect(rs.getVideo(1)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});
