/**
 * Dry runs of POST /videos and regenerate over the in-memory stores: every check of the real request,
 * the same refusal where one fails, and nothing written, reserved or claimed where all pass.
 */
import { AppError } from '#domain/errors';
import { estimatedSeconds } from '#domain/quote';
import { createVideoJob, quoteVideoJob, type CreateVideoJobInput } from '#use-cases/create-video-job';
import { quoteRegeneration, regenerateVideoJob, type RegenerateVideoJobInput } from '#use-cases/regenerate-video-job';
import { createUpload } from '#use-cases/create-upload';
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
import { clipOnDisk, NOW, PERIOD, previewReadyJob, promptRequest, videoJobFixture } from '#test-support/video-jobs';

const motionUpload = (productId: number, avatarId: number) => promptRequest(productId, { method: 'motion', prompt: null, avatarId, videoSource: 'upload' });

/** What a call settles as: the value, or the refusal's status, code and message. */
async function outcome<T>(call: Promise<T>): Promise<T | { status: number; code: string; message: string }> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, code: error.code, message: error.message };
  }
}

async function fixtureWithUploads(options: { plan?: 'free' | 'pro' } = {}) {
  const fixture = await videoJobFixture(options);
  const uploads = new MemoryUploadStore();
  const deps = { ...fixture.deps, uploads };
  const newUpload = async (bytes = 'clip bytes', declared = 10) => {
    const { upload } = await createUpload(deps, fixture.accountId, { purpose: 'reference_video', content_type: 'video/mp4', size_bytes: declared });
    await fixture.blobs.putBuffer(upload.key, Buffer.from(bytes), 'video/mp4');
    return upload;
  };
  return { ...fixture, deps, uploads, newUpload };
}

/** Fills the free plan's three units with reservations of other jobs. */
function fillAllowance(ledger: Awaited<ReturnType<typeof videoJobFixture>>['ledger'], accountId: number, units = 3) {
  for (let jobId = 101; jobId < 101 + units; jobId++) ledger.reserve({ ref: { accountId, jobId, chargeNumber: 1 }, period: PERIOD, limit: 3 }, NOW);
}

describe('quoteVideoJob (POST /videos?dry_run=true)', () => {
  test('answers the units, the allowance as it stands and an estimate; no job, no unit, no start', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture({ plan: 'free' });
    fillAllowance(ledger, accountId, 1);
    const quote = await quoteVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    expect(quote).toEqual({ valid: true, units: 1, allowance: { limit: 3, used: 0, reserved: 1, remaining: 2 }, estimated_seconds: estimatedSeconds('prompt', 'preview') });
    expect((await deps.jobs.listRecent(accountId, 10)).items).toEqual([]);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    expect(runner.started).toEqual([]);
    // No Idempotency-Key record either: the real request with the same key makes its job.
    const job = await createVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    expect(runner.started.map((s) => s.job_id)).toEqual([job.id]);
  });

  test('a caption kept over the demo (hook_duration full) adds the demo\'s encode to an auto job\'s estimate, not to a preview\'s', async () => {
    const { deps, accountId, productId } = await videoJobFixture();
    const quote = (mode: 'auto' | 'preview', hookDuration: 'reaction' | 'full') =>
      quoteVideoJob(deps, { accountId, request: promptRequest(productId, { mode, hookDuration }) }).then((q) => q.estimated_seconds);
    expect(await quote('auto', 'full')).toBeGreaterThan((await quote('auto', 'reaction')) + 10);
    expect(await quote('preview', 'full')).toBe(await quote('preview', 'reaction'));
  });

  test('each failing check is the real create\'s refusal, word for word', async () => {
    const { deps, accountId, productId, avatarId, ledger } = await videoJobFixture({ plan: 'free' });
    const at = NOW.toISOString();
    await deps.products.create({ id: 2, account_id: accountId, name: 'Lamp', description: null, demo: { status: 'processing', original_key: 'o' } as never, created_at: at, updated_at: at });
    await deps.avatars.create({ ...(await deps.avatars.get(accountId, avatarId))!, id: 2, status: 'processing' }, 10);
    const requests: CreateVideoJobInput['request'][] = [
      promptRequest(999),
      promptRequest(2),
      promptRequest(productId, { avatarId: 42 }),
      promptRequest(productId, { avatarId: 2 }),
      promptRequest(productId, { method: 'reuse', prompt: null, reactionId: 5 }),
    ];
    for (const request of requests) {
      const quoted = await outcome(quoteVideoJob(deps, { accountId, request }));
      expect(quoted).toMatchObject({ status: expect.any(Number) });
      expect(quoted).toEqual(await outcome(createVideoJob(deps, { accountId, request })));
    }
    fillAllowance(ledger, accountId);
    const quoted = await outcome(quoteVideoJob(deps, { accountId, request: promptRequest(productId) }));
    expect(quoted).toMatchObject({ status: 402, code: 'allowance_exhausted' });
    expect(quoted).toEqual(await outcome(createVideoJob(deps, { accountId, request: promptRequest(productId) })));
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 3 });
  });

  test('the checks come in the real order: a missing product is 404 even when the allowance is used up', async () => {
    const { deps, accountId, ledger } = await videoJobFixture({ plan: 'free' });
    fillAllowance(ledger, accountId);
    await expect(quoteVideoJob(deps, { accountId, request: promptRequest(999) })).rejects.toMatchObject({ status: 404 });
  });

  test('a clip the inspector refuses is its error, as for the create', async () => {
    const refusal = new AppError('invalid_media', 'reference_video cannot be read');
    const { deps, accountId, productId, avatarId } = await videoJobFixture({ media: { inspectReference: () => Promise.reject(refusal) } });
    const clip = await clipOnDisk();
    try {
      await expect(quoteVideoJob(deps, { accountId, request: motionUpload(productId, avatarId), referenceVideo: clip })).rejects.toBe(refusal);
    } finally {
      await clip.cleanup();
    }
  });

  test('a direct upload is checked and read but not claimed: the real create can still use it after', async () => {
    const { deps, accountId, productId, avatarId, uploads, blobs, newUpload } = await fixtureWithUploads();
    const upload = await newUpload();
    const input = { accountId, request: motionUpload(productId, avatarId), referenceVideo: { uploadId: upload.id } };
    expect(await quoteVideoJob(deps, input)).toMatchObject({ valid: true, units: 1, estimated_seconds: estimatedSeconds('motion', 'preview') });
    expect(await uploads.get(accountId, upload.id)).toMatchObject({ status: 'pending' });
    expect(blobs.objects.has(upload.key)).toBe(true);
    const job = await createVideoJob(deps, input);
    expect(job.reference_key).toBe(`accounts/${accountId}/jobs/${job.id}/reference-0`);
    // Used now: the dry run says so as the create does.
    expect(await outcome(quoteVideoJob(deps, input))).toEqual(await outcome(createVideoJob(deps, input)));
    expect(await outcome(quoteVideoJob(deps, input))).toMatchObject({ status: 409, code: 'conflict' });
  });

  test('the upload refusals are the create\'s; a file larger than declared is refused but left where it is', async () => {
    const { deps, accountId, productId, avatarId, blobs, newUpload } = await fixtureWithUploads();
    const request = motionUpload(productId, avatarId);
    expect(await outcome(quoteVideoJob(deps, { accountId, request, referenceVideo: { uploadId: 'nope' } }))).toMatchObject({ status: 404 });
    const oversized = await newUpload('a clip longer than declared', 5);
    const quoted = await outcome(quoteVideoJob(deps, { accountId, request, referenceVideo: { uploadId: oversized.id } }));
    expect(quoted).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(blobs.objects.has(oversized.key)).toBe(true);
    expect(quoted).toEqual(await outcome(createVideoJob(deps, { accountId, request, referenceVideo: { uploadId: oversized.id } })));
  });

  test('with an Idempotency-Key already used: the same request quotes 0 units, another one is 409', async () => {
    const { deps, accountId, productId, ledger } = await videoJobFixture({ plan: 'free' });
    await createVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' });
    fillAllowance(ledger, accountId, 2);
    // A repeat reserves nothing, so even a full allowance covers it.
    expect(await quoteVideoJob(deps, { accountId, request: promptRequest(productId), idempotencyKey: 'key-1' })).toMatchObject({
      units: 0,
      allowance: { limit: 3, used: 0, reserved: 3, remaining: 0 },
    });
    const other = { accountId, request: promptRequest(productId, { prompt: 'other' }), idempotencyKey: 'key-1' };
    expect(await outcome(quoteVideoJob(deps, other))).toEqual(await outcome(createVideoJob(deps, other)));
    expect(await outcome(quoteVideoJob(deps, other))).toMatchObject({ status: 409 });
  });
});

describe('quoteRegeneration (regenerate?dry_run=true)', () => {
  test('one unit against the allowance, and the job is left at preview_ready with its token', async () => {
    const { deps, accountId, jobs, ledger, runner } = await videoJobFixture({ plan: 'free' });
    const job = jobs.put(previewReadyJob(accountId, 1));
    const quote = await quoteRegeneration(deps, { accountId, jobId: 1, changes: { prompt: 'now laughing' } });
    expect(quote).toEqual({ valid: true, units: 1, allowance: { limit: 3, used: 0, reserved: 0, remaining: 3 }, estimated_seconds: estimatedSeconds('prompt', 'preview') });
    expect(await jobs.get(accountId, 1)).toEqual(job);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    expect(runner.decisions).toEqual([]);
  });

  test('each failing check is the real regenerate\'s refusal: 404, 409 off preview_ready, 402 without a unit', async () => {
    const { deps, accountId, jobs, ledger } = await videoJobFixture({ plan: 'free' });
    jobs.put(previewReadyJob(accountId, 1));
    jobs.put(previewReadyJob(accountId, 2, { status: 'processing', stage: 'composing', task_token: null }));
    const same = async (input: RegenerateVideoJobInput) => {
      const quoted = await outcome(quoteRegeneration(deps, input));
      expect(quoted).toEqual(await outcome(regenerateVideoJob(deps, input)));
      return quoted;
    };
    expect(await same({ accountId, jobId: 99, changes: {} })).toMatchObject({ status: 404 });
    expect(await same({ accountId, jobId: 2, changes: {} })).toMatchObject({ status: 409 });
    expect(await same({ accountId, jobId: 1, changes: { avatar_id: 42 } as never })).toMatchObject({ status: expect.any(Number) });
    fillAllowance(ledger, accountId);
    expect(await same({ accountId, jobId: 1, changes: {} })).toMatchObject({ status: 402, code: 'allowance_exhausted' });
    expect((await jobs.get(accountId, 1))?.status).toBe('preview_ready');
  });

  test('a new uploaded clip is checked but not claimed', async () => {
    const { deps, accountId, jobs, uploads, newUpload } = await fixtureWithUploads();
    jobs.put(previewReadyJob(accountId, 1, { method: 'motion', prompt: null, avatar_id: 1, video_source: 'upload', reference_key: `accounts/${accountId}/jobs/1/reference-0` }));
    const upload = await newUpload();
    const quote = await quoteRegeneration(deps, { accountId, jobId: 1, changes: {}, referenceVideo: { uploadId: upload.id } });
    expect(quote).toMatchObject({ units: 1, estimated_seconds: estimatedSeconds('motion', 'preview') });
    expect(await uploads.get(accountId, upload.id)).toMatchObject({ status: 'pending' });
    expect(await regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: { uploadId: upload.id } })).toMatchObject({ regenerations: 1 });
  });
});

describe('estimatedSeconds', () => {
  test('whole seconds from the measured figures: motion takes longer than prompt, reuse previews are quickest', () => {
    expect(estimatedSeconds('prompt', 'auto')).toBe(3);
    expect(estimatedSeconds('prompt', 'preview')).toBe(4);
    expect(estimatedSeconds('motion', 'auto')).toBe(4);
    expect(estimatedSeconds('motion', 'preview')).toBe(5);
    expect(estimatedSeconds('reuse', 'auto')).toBe(3);
    expect(estimatedSeconds('reuse', 'preview')).toBe(2);
  });
});
