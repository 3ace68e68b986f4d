import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '#domain/errors';
import { EngineError } from '#ports/engine';
import { REFERENCE_CLIP_LIMITS, ReferenceRefused } from '#ports/reference-resolver';
import { createVideoJob, quoteVideoJob } from '#use-cases/create-video-job';
import { clipOnDisk, linkedMotionRequest, NOW, PERIOD, promptRequest, videoJobFixture } from '#test-support/video-jobs';
import { faceFinder } from '#test-doubles/faces';
import { referenceResolver } from '#test-doubles/references';
import { RecordingMetrics } from '#test-doubles/memory/metrics';
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
import { createUpload } from '#use-cases/create-upload';

const motionUpload = (productId: number, avatarId: number) =>
  promptRequest(productId, { method: 'motion', prompt: null, avatarId, videoSource: 'upload' });

describe('createVideoJob', () => {
  test('writes the job queued with its first unit reserved, and starts its execution', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    const job = await createVideoJob(deps, { accountId, request: promptRequest(productId) });
    expect(job).toMatchObject({ account_id: accountId, status: 'queued', stage: 'queued', resume_at: 'Start', created_at: NOW.toISOString() });
    expect(await deps.jobs.get(accountId, job.id)).toEqual(job);
    expect(await ledger.entry({ accountId, jobId: job.id, chargeNumber: 1 })).toEqual({ state: 'reserved', period: PERIOD });
    expect(runner.started).toEqual([{ account_id: accountId, job_id: job.id, job: { mode: 'preview', method: 'prompt' } }]);
  });

  test('an uploaded reference clip is judged, then stored under the job as what its bytes are', async () => {
    const { deps, accountId, productId, avatarId, blobs } = await videoJobFixture();
    const clip = await clipOnDisk();
    try {
      const job = await createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), referenceVideo: clip });
      expect(job.reference_key).toBe(`accounts/${accountId}/jobs/${job.id}/reference-0`);
      expect(blobs.objects.get(job.reference_key!)).toEqual({ data: Buffer.from('clip bytes'), contentType: 'video/mp4' });
    } finally {
      await clip.cleanup();
    }
  });

  test('the same request again with its Idempotency-Key answers the first job: one job, one unit, one start', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    const first = await createVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    const again = await createVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect(runner.started).toHaveLength(1);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('the key with another request is 409 and writes nothing', async () => {
    const { deps, accountId, productId, ledger } = await videoJobFixture();
    await createVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    await expect(createVideoJob(deps, { accountId, request: promptRequest(productId, { prompt: 'other' }), idempotencyKey: 'key-1' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('different request'),
    });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('two requests racing with one key: the one that loses the write answers the winner\'s job and leaves its upload nowhere', async () => {
    const { deps, accountId, productId, avatarId, jobs, blobs, ledger, runner } = await videoJobFixture();
    const request = motionUpload(productId, avatarId);
    const clip = await clipOnDisk();
    try {
      // The winner writes between the loser's look-up of the key and its own write.
      const getIdempotency = jobs.getIdempotency.bind(jobs);
      let raced = false;
      jobs.getIdempotency = async (...args) => {
        const found = await getIdempotency(...args);
        if (!raced) {
          raced = true;
          await createVideoJob(deps, { accountId, request, idempotencyKey: 'key-1', referenceVideo: clip });
        }
        return found;
      };
      const loser = await createVideoJob(deps, { accountId, request, idempotencyKey: 'key-1', referenceVideo: clip });
      expect(runner.started.map((s) => s.job_id)).toEqual([loser.id]);
      expect([...blobs.objects.keys()]).toEqual([loser.reference_key]);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    } finally {
      await clip.cleanup();
    }
  });

  test('a full allowance is 402 and leaves no job, no unit and no upload', async () => {
    const { deps, accountId, productId, avatarId, ledger, blobs } = await videoJobFixture({ plan: 'free' });
    for (let jobId = 101; jobId <= 103; jobId++) ledger.reserve({ ref: { accountId, jobId, chargeNumber: 1 }, period: PERIOD, limit: 3 }, NOW);
    const clip = await clipOnDisk();
    try {
      const refused = createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), referenceVideo: clip });
      await expect(refused).rejects.toMatchObject({ code: 'allowance_exhausted', status: 402 });
      expect(await deps.jobs.listActive()).toEqual([]);
      expect(blobs.objects.size).toBe(0);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 3 });
    } finally {
      await clip.cleanup();
    }
  });

  test('a runner that cannot start the job: 503 retry-after, and nothing is left (no job, no key, no unit, no upload)', async () => {
    const { deps, accountId, productId, avatarId, ledger, blobs, runner } = await videoJobFixture();
    runner.failStart = new Error('states unreachable');
    const clip = await clipOnDisk();
    try {
      const failed = createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), idempotencyKey: 'key-1', referenceVideo: clip });
      await expect(failed).rejects.toMatchObject({ code: 'upstream_unavailable', headers: { 'retry-after': '5' }, cause: runner.failStart });
      expect(await deps.jobs.listActive()).toEqual([]);
      expect(blobs.objects.size).toBe(0);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
      // The key was taken back too: a retry makes the job.
      runner.failStart = undefined;
      const retried = await createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), idempotencyKey: 'key-1', referenceVideo: clip });
      expect(runner.started.map((s) => s.job_id)).toEqual([retried.id]);
    } finally {
      await clip.cleanup();
    }
  });

  test('a start that failed after the execution moved the job: the job stands and is answered as it is', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    runner.onStart = async (input) => void (await deps.jobs.update(input.account_id, input.job_id, { status: 'processing', stage: 'preparing' }));
    runner.failStart = new Error('answer lost');
    const metrics = new RecordingMetrics();
    const job = await createVideoJob({ ...deps, metrics }, { accountId, request: promptRequest(productId) });
    expect(job).toMatchObject({ status: 'processing', stage: 'preparing' });
    expect(await ledger.entry({ accountId, jobId: job.id, chargeNumber: 1 })).toMatchObject({ state: 'reserved' });
    expect(metrics.events).toEqual([{ name: 'JobsStarted' }]);
  });

  test('a started job is counted once; a repeat with its key, or a job that could not start, is not', async () => {
    const { deps, accountId, productId, runner } = await videoJobFixture();
    const metrics = new RecordingMetrics();
    await createVideoJob({ ...deps, metrics }, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    await createVideoJob({ ...deps, metrics }, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    runner.failStart = new Error('states unreachable');
    await expect(createVideoJob({ ...deps, metrics }, { accountId, request: promptRequest(productId) })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(metrics.events).toEqual([{ name: 'JobsStarted' }]);
  });

  test('what the job names must exist and be usable: 404 naming the field, 409 while not ready; nothing is reserved', async () => {
    const { deps, accountId, productId, ledger } = await videoJobFixture();
    await expect(createVideoJob(deps, { accountId, request: promptRequest(999) })).rejects.toMatchObject({ code: 'not_found', message: 'product_id: Product 999 not found' });
    await expect(createVideoJob(deps, { accountId, request: promptRequest(productId, { avatarId: 42 }) })).rejects.toMatchObject({ code: 'not_found', message: 'avatar_id: Avatar 42 not found' });
    await expect(createVideoJob(deps, { accountId, request: promptRequest(productId, { method: 'reuse', prompt: null, reactionId: 5 }) })).rejects.toMatchObject({ code: 'not_found' });
    await deps.products.create({ id: 2, account_id: accountId, name: 'Lamp', description: null, demo: { status: 'processing', original_key: 'o' } as never, created_at: NOW.toISOString(), updated_at: NOW.toISOString() });
    await expect(createVideoJob(deps, { accountId, request: promptRequest(2) })).rejects.toMatchObject({ code: 'conflict' });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a clip the inspector refuses is its error (422), before anything is written', async () => {
    const refusal = new AppError('invalid_media', 'reference_video cannot be read');
    const { deps, accountId, productId, avatarId, ledger, blobs } = await videoJobFixture({ media: { inspectReference: () => Promise.reject(refusal) } });
    const clip = await clipOnDisk();
    try {
      await expect(createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), referenceVideo: clip })).rejects.toBe(refusal);
      expect(blobs.objects.size).toBe(0);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    } finally {
      await clip.cleanup();
    }
  });

  describe('with reference_video_upload_id and an Idempotency-Key', () => {
    async function withUpload() {
      const fixture = await videoJobFixture();
      const deps = { ...fixture.deps, uploads: new MemoryUploadStore() };
      const { upload } = await createUpload(deps, fixture.accountId, { purpose: 'reference_video', content_type: 'video/mp4', size_bytes: 10 });
      await fixture.blobs.putBuffer(upload.key, Buffer.from('clip bytes'), 'video/mp4');
      return { ...fixture, deps, upload };
    }

    test('the same request sent twice at once: one job; the twin answers it, or says the key is in progress (never "upload used")', async () => {
      const { deps, accountId, productId, avatarId, ledger, upload } = await withUpload();
      const send = () => createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), idempotencyKey: 'key-1', referenceVideo: { uploadId: upload.id } });
      const outcomes = await Promise.allSettled([send(), send()]);
      const jobs = outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<{ id: number }>).value.id);
      expect(jobs.length).toBeGreaterThanOrEqual(1);
      expect(new Set(jobs).size).toBe(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) {
        expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict', message: expect.stringContaining('Idempotency-Key is in progress'), headers: { 'retry-after': '1' } });
      }
      // Retried, the twin gets the one job; one unit is reserved in all.
      expect((await send()).id).toBe(jobs[0]);
      expect(await ledger.entry({ accountId, jobId: jobs[0]!, chargeNumber: 1 })).toEqual({ state: 'reserved', period: PERIOD });
      expect(await ledger.entry({ accountId, jobId: jobs[0]! + 1, chargeNumber: 1 })).toBeUndefined();
    });

    test('without a key, a second use of the upload stays a 409 that names it', async () => {
      const { deps, accountId, productId, avatarId, upload } = await withUpload();
      await createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), referenceVideo: { uploadId: upload.id } });
      await expect(createVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), referenceVideo: { uploadId: upload.id } })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('was already used'),
      });
    });
  });
});

describe('createVideoJob with a reference_url (video_source=link)', () => {
  const LINK = 'https://v16m.tiktokcdn.com/video/face.mp4';

  test('the linked clip is fetched once within the pipeline\'s limits, judged, and stored under the job as an upload is; the job still says it came from the link', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes' });
    const { deps, accountId, productId, avatarId, blobs, ledger } = await videoJobFixture({ references });
    const job = await createVideoJob(deps, { accountId, request: linkedMotionRequest(productId, avatarId, LINK) });
    expect(job).toMatchObject({ video_source: 'link', reference_url: LINK, reference_key: `accounts/${accountId}/jobs/${job.id}/reference-0` });
    expect(blobs.objects.get(job.reference_key!)).toEqual({ data: Buffer.from('linked bytes'), contentType: 'video/mp4' });
    expect(references.calls).toEqual([{ url: LINK, options: expect.objectContaining(REFERENCE_CLIP_LIMITS) }]);
    // The scratch copy is gone once the job is written.
    expect(existsSync(dirname(references.calls[0]!.options.destinationPath))).toBe(false);
    expect(await ledger.entry({ accountId, jobId: job.id, chargeNumber: 1 })).toEqual({ state: 'reserved', period: PERIOD });
  });

  test('a linked clip without a face is 422 no_face naming reference_url: no job, no unit, no object', async () => {
    const references = referenceResolver({ [LINK]: 'a landscape' });
    const { deps, accountId, productId, avatarId, blobs, ledger, runner } = await videoJobFixture({ references, faces: faceFinder({ clip: false }) });
    await expect(createVideoJob(deps, { accountId, request: linkedMotionRequest(productId, avatarId, LINK) })).rejects.toMatchObject({
      status: 422,
      code: 'no_face',
      message: expect.stringMatching(/^reference_url: we could not find a face in this clip/),
    });
    expect(await deps.jobs.listActive()).toEqual([]);
    expect(blobs.objects.size).toBe(0);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    expect(runner.started).toEqual([]);
    expect(existsSync(dirname(references.calls[0]!.options.destinationPath))).toBe(false);
  });

  test.each([
    ['the link itself (a 404, a private address, a host off the list by a redirect)', 'link', 400, 'bad_request'],
    ['a file over 100 MB', 'too_large', 413, 'payload_too_large'],
    ['a web page, an image or an audio file', 'not_video', 415, 'unsupported_media_type'],
    ['a damaged video, or one over 60 s', 'unreadable', 422, 'invalid_media'],
  ] as const)('a link the resolver refuses for %s answers as that refusal of a file would, with its advice; nothing is reserved', async (_what, refusal, status, code) => {
    const refused = new ReferenceRefused(refusal, 'The resolver says why.');
    const { deps, accountId, productId, avatarId, blobs, ledger } = await videoJobFixture({ references: referenceResolver({ [LINK]: refused }) });
    await expect(createVideoJob(deps, { accountId, request: linkedMotionRequest(productId, avatarId, LINK) })).rejects.toMatchObject({
      status,
      code,
      message: 'reference_url: The resolver says why.',
      cause: refused,
    });
    expect(await deps.jobs.listActive()).toEqual([]);
    expect(blobs.objects.size).toBe(0);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a link whose server does not answer in time, or answers 5xx, is 503 with Retry-After: nothing is reserved', async () => {
    const busy = new EngineError('provider_unavailable', "The reference link's server is not answering properly (HTTP 503); try again later.");
    const { deps, accountId, productId, avatarId, ledger } = await videoJobFixture({ references: referenceResolver({ [LINK]: busy }) });
    const failed = createVideoJob(deps, { accountId, request: linkedMotionRequest(productId, avatarId, LINK) });
    await expect(failed).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable', expose: true, headers: { 'retry-after': '30' }, message: expect.stringMatching(/^reference_url: .*HTTP 503.*Nothing was reserved/) });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a repeat with its Idempotency-Key answers the job before anything is fetched again', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes' });
    const { deps, accountId, productId, avatarId, runner } = await videoJobFixture({ references });
    const request = linkedMotionRequest(productId, avatarId, LINK);
    const first = await createVideoJob(deps, { accountId, request, idempotencyKey: 'key-1' });
    const again = await createVideoJob(deps, { accountId, request, idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect(references.calls).toHaveLength(1);
    expect(runner.started).toHaveLength(1);
  });

  test('a job that cannot be written leaves no stored clip and no scratch copy', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes' });
    const { deps, accountId, productId, avatarId, jobs, blobs, ledger } = await videoJobFixture({ references });
    const unreachable = new Error('table unreachable');
    jobs.create = () => Promise.reject(unreachable);
    await expect(createVideoJob(deps, { accountId, request: linkedMotionRequest(productId, avatarId, LINK) })).rejects.toBe(unreachable);
    expect(blobs.objects.size).toBe(0);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    expect(existsSync(dirname(references.calls[0]!.options.destinationPath))).toBe(false);
  });

  test('the dry run fetches and judges the link as the create does, and stores nothing', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes' });
    const { deps, accountId, productId, avatarId, blobs } = await videoJobFixture({ references });
    expect(await quoteVideoJob(deps, { accountId, request: linkedMotionRequest(productId, avatarId, LINK) })).toMatchObject({ valid: true, units: 1 });
    expect(references.calls).toHaveLength(1);
    expect(blobs.objects.size).toBe(0);
    const faceless = await videoJobFixture({ references, faces: faceFinder({ clip: false }) });
    await expect(quoteVideoJob(faceless.deps, { accountId: faceless.accountId, request: linkedMotionRequest(faceless.productId, faceless.avatarId, LINK) })).rejects.toMatchObject({ code: 'no_face' });
  });
});
