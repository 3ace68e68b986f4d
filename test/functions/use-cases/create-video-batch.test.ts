import { createVideoBatch, quoteVideoBatch, readVideoBatch } from '#use-cases/create-video-batch';
import type { VideoVariant } from '#domain/schemas/video-batch';
import { createUpload } from '#use-cases/create-upload';
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
import { linkedMotionRequest, NOW, PERIOD, promptRequest, videoJobFixture } from '#test-support/video-jobs';
import { faceFinder } from '#test-doubles/faces';
import { referenceResolver } from '#test-doubles/references';
import { EngineError } from '#ports/engine';
import pWaitFor from 'p-wait-for';
const { max } = Math;

const variant = (productId: number, hookText: string, changes = {}): VideoVariant => ({ request: promptRequest(productId, { hookText, ...changes }), referenceUploadId: null });
const three = (productId: number) => ['One', 'Two', 'Three'].map((hook) => variant(productId, hook));

describe('createVideoBatch', () => {
  test('writes the batch and its jobs in variant order, each queued with its unit and batch_id, and starts them in that order', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    const { batch, jobs } = await createVideoBatch(deps, { accountId, productId, variants: three(productId) });
    expect(batch).toEqual({ id: expect.any(Number), account_id: accountId, product_id: productId, job_ids: jobs.map((job) => job.id), created_at: NOW.toISOString() });
    expect(jobs.map((job) => [job.hook_text, job.status, job.batch_id])).toEqual([
      ['One', 'queued', batch.id],
      ['Two', 'queued', batch.id],
      ['Three', 'queued', batch.id],
    ]);
    expect([...batch.job_ids].sort((a, b) => a - b)).toEqual(batch.job_ids);
    expect(runner.started.map((s) => s.job_id)).toEqual(batch.job_ids);
    for (const jobId of batch.job_ids) expect(await ledger.entry({ accountId, jobId, chargeNumber: 1 })).toEqual({ state: 'reserved', period: PERIOD });
    expect(await readVideoBatch(deps, accountId, batch.id)).toEqual({ batch, jobs });
    expect(await readVideoBatch(deps, accountId + 1, batch.id)).toBeUndefined();
  });

  test('an allowance that cannot cover every variant is 402 for the whole batch: no batch, no job, no unit, no start', async () => {
    const { deps, accountId, productId, ledger, runner, jobs } = await videoJobFixture({ plan: 'free' });
    ledger.reserve({ ref: { accountId, jobId: 900, chargeNumber: 1 }, period: PERIOD, limit: 3 }, NOW);
    await expect(createVideoBatch(deps, { accountId, productId, variants: three(productId), idempotencyKey: 'key-1' })).rejects.toMatchObject({ code: 'allowance_exhausted', status: 402 });
    expect(await jobs.listRecent(accountId, 10)).toEqual({ items: [], nextBefore: null });
    expect(await jobs.getBatchIdempotency(accountId, expect.any(String) as never, NOW)).toBeUndefined();
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    expect(runner.started).toEqual([]);
  });

  test('every variant is checked before anything is written: a refusal names the variant', async () => {
    const { deps, accountId, productId, ledger, jobs } = await videoJobFixture();
    const variants = [variant(productId, 'One'), variant(productId, 'Two', { avatarId: 1 }), variant(productId, 'Three', { method: 'reuse', prompt: null, reactionId: 77 })];
    await expect(createVideoBatch(deps, { accountId, productId, variants })).rejects.toMatchObject({ code: 'not_found', message: 'variants[2].reaction_id: Saved reaction 77 not found' });
    await expect(createVideoBatch(deps, { accountId, productId: 99, variants: three(99) })).rejects.toMatchObject({ code: 'not_found', message: 'product_id: Product 99 not found' });
    expect(await jobs.listRecent(accountId, 10)).toEqual({ items: [], nextBefore: null });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('the same batch again with its key answers the first one; the key with another batch is 409', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    const first = await createVideoBatch(deps, { accountId, productId, variants: three(productId), idempotencyKey: 'key-1' });
    const again = await createVideoBatch(deps, { accountId, productId, variants: three(productId), idempotencyKey: 'key-1' });
    expect(again).toEqual(first);
    expect(runner.started).toHaveLength(3);
    const other = [variant(productId, 'One'), variant(productId, 'Two')];
    await expect(createVideoBatch(deps, { accountId, productId, variants: other, idempotencyKey: 'key-1' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('different request') });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 3 });
  });

  test('a job whose execution cannot start fails with its unit released; the others run, and the batch says so per job', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    let starts = 0;
    runner.onStart = async () => {
      runner.failStart = ++starts === 2 ? new Error('states throttled') : undefined;
    };
    const { batch, jobs } = await createVideoBatch(deps, { accountId, productId, variants: three(productId) });
    expect(jobs.map((job) => job.status)).toEqual(['queued', 'failed', 'queued']);
    expect(jobs[1]).toMatchObject({ stage: 'failed', charged_units: 0, error: { code: 'internal_error', message: expect.stringContaining('nothing was charged') } });
    expect(runner.started.map((s) => s.job_id)).toEqual([batch.job_ids[0], batch.job_ids[2]]);
    expect(await ledger.entry({ accountId, jobId: batch.job_ids[1]!, chargeNumber: 1 })).toMatchObject({ state: 'released' });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 2 });
  });

  test('a start that failed after the execution moved its job leaves the job to the execution', async () => {
    const { deps, accountId, productId, ledger, runner } = await videoJobFixture();
    runner.onStart = async (input) => void (await deps.jobs.update(input.account_id, input.job_id, { status: 'processing', stage: 'preparing' }));
    runner.failStart = new Error('answer lost');
    const { jobs } = await createVideoBatch(deps, { accountId, productId, variants: three(productId) });
    expect(jobs.map((job) => job.status)).toEqual(['processing', 'processing', 'processing']);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 3 });
  });

  test('direct uploads: each checked and stored under its job; a batch refused later gives them back', async () => {
    const fixture = await videoJobFixture({ plan: 'free' });
    const deps = { ...fixture.deps, uploads: new MemoryUploadStore() };
    const { accountId, productId, avatarId, blobs, ledger } = fixture;
    const uploadIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { upload } = await createUpload(deps, accountId, { purpose: 'reference_video', content_type: 'video/mp4', size_bytes: 10 });
      await blobs.putBuffer(upload.key, Buffer.from('clip bytes'), 'video/mp4');
      uploadIds.push(upload.id);
    }
    const motion = (uploadId: string): VideoVariant => ({ request: promptRequest(productId, { method: 'motion', prompt: null, avatarId, videoSource: 'upload' }), referenceUploadId: uploadId });
    // Four variants on a free plan (3 videos): 402 once both uploads passed their checks, the batch's refusal, not a variant's.
    const refused = createVideoBatch(deps, { accountId, productId, variants: [motion(uploadIds[0]!), motion(uploadIds[1]!), ...three(productId).slice(0, 2)] });
    await expect(refused).rejects.toMatchObject({ code: 'allowance_exhausted', message: expect.not.stringMatching(/^variants\[/) });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });

    const { jobs } = await createVideoBatch(deps, { accountId, productId, variants: [motion(uploadIds[0]!), variant(productId, 'Two'), motion(uploadIds[1]!)] });
    expect(jobs.map((job) => job.reference_key)).toEqual([`accounts/${accountId}/jobs/${jobs[0]!.id}/reference-0`, null, `accounts/${accountId}/jobs/${jobs[2]!.id}/reference-0`]);
    for (const job of [jobs[0]!, jobs[2]!]) expect(blobs.objects.get(job.reference_key!)).toEqual({ data: Buffer.from('clip bytes'), contentType: 'video/mp4' });
    // Used once: a second batch naming one of them is 409, as POST /videos answers it.
    await expect(createVideoBatch(deps, { accountId, productId, variants: [motion(uploadIds[1]!)] })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('was already used') });
  });
});

describe('createVideoBatch with linked references (video_source=link)', () => {
  const LINK = 'https://v16m.tiktokcdn.com/video/face.mp4';
  const OTHER = 'https://video.twimg.com/other.mp4';
  const linked = (productId: number, avatarId: number, url: string): VideoVariant => ({ request: linkedMotionRequest(productId, avatarId, url), referenceUploadId: null });

  test('a link named by several variants is fetched and judged once; each job stores its own copy and keeps its link', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes', [OTHER]: 'other bytes' });
    const { deps, accountId, productId, avatarId, blobs, ledger } = await videoJobFixture({ plan: 'pro', references });
    const variants = [linked(productId, avatarId, LINK), variant(productId, 'Prompt'), linked(productId, avatarId, OTHER), linked(productId, avatarId, LINK)];
    const { jobs } = await createVideoBatch(deps, { accountId, productId, variants });
    expect(references.calls.map((call) => call.url)).toEqual([LINK, OTHER]);
    expect(jobs.map((job) => [job.video_source, job.reference_url, job.reference_key])).toEqual([
      ['link', LINK, `accounts/${accountId}/jobs/${jobs[0]!.id}/reference-0`],
      [null, null, null],
      ['link', OTHER, `accounts/${accountId}/jobs/${jobs[2]!.id}/reference-0`],
      ['link', LINK, `accounts/${accountId}/jobs/${jobs[3]!.id}/reference-0`],
    ]);
    expect([jobs[0]!, jobs[2]!, jobs[3]!].map((job) => blobs.objects.get(job.reference_key!)?.data.toString())).toEqual(['linked bytes', 'other bytes', 'linked bytes']);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 4 });
  });

  test('a faceless linked clip is 422 no_face naming the variant: no batch, no unit, no object', async () => {
    const references = referenceResolver({ [LINK]: 'a landscape' });
    const { deps, accountId, productId, avatarId, blobs, ledger, jobs } = await videoJobFixture({ references, faces: faceFinder({ clip: false }) });
    const refused = createVideoBatch(deps, { accountId, productId, variants: [variant(productId, 'One'), linked(productId, avatarId, LINK)] });
    await expect(refused).rejects.toMatchObject({ status: 422, code: 'no_face', message: expect.stringMatching(/^variants\[1\]\.reference_url: we could not find a face/) });
    expect(await jobs.listRecent(accountId, 10)).toEqual({ items: [], nextBefore: null });
    expect(blobs.objects.size).toBe(0);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a link the resolver refuses names the variant; a link server that does not answer is 503 with Retry-After; nothing is reserved', async () => {
    const busy = new EngineError('provider_unavailable', 'The reference link took longer than 12 s to download; try again later.');
    const references = referenceResolver({ [OTHER]: busy });
    const { deps, accountId, productId, avatarId, ledger } = await videoJobFixture({ references });
    await expect(createVideoBatch(deps, { accountId, productId, variants: [linked(productId, avatarId, LINK)] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^variants\[0\]\.reference_url: The reference link could not be opened \(HTTP 404/),
    });
    await expect(createVideoBatch(deps, { accountId, productId, variants: [linked(productId, avatarId, OTHER)] })).rejects.toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      headers: { 'retry-after': '30' },
    });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('distinct links are fetched side by side, at most four at once, each before any unit is reserved', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `https://v16m.tiktokcdn.com/video/clip-${i}.mp4`);
    const served = referenceResolver(Object.fromEntries(urls.map((url) => [url, `bytes ${url}`])));
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const references = {
      ...served,
      async resolve(url: string, options: Parameters<typeof served.resolve>[1]) {
        inFlight++;
        most = max(most, inFlight);
        // Each download waits until the test lets it end, so the ones in flight together can be counted.
        await new Promise<void>((resolve) => release.push(resolve));
        inFlight--;
        return served.resolve(url, options);
      },
    };
    const { deps, accountId, productId, avatarId, ledger } = await videoJobFixture({ references, plan: 'pro' });
    const made = createVideoBatch(deps, { accountId, productId, variants: urls.map((url) => linked(productId, avatarId, url)) });
    await pWaitFor(() => inFlight === 4, { interval: 1 });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    for (let i = 0; i < urls.length; i++) {
      await pWaitFor(() => release.length > i, { interval: 1 });
      release[i]!();
    }
    const { jobs } = await made;
    expect(most).toBe(4);
    expect(jobs.map((job) => job.reference_url)).toEqual(urls);
  });

  test('of several refused links, the first variant\'s refusal answers, naming that variant', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes' });
    const { deps, accountId, productId, avatarId, ledger } = await videoJobFixture({ references });
    const missing = (name: string) => `https://video.twimg.com/${name}.mp4`;
    const refused = createVideoBatch(deps, { accountId, productId, variants: [linked(productId, avatarId, LINK), linked(productId, avatarId, missing('b')), linked(productId, avatarId, missing('a'))] });
    await expect(refused).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^variants\[1\]\.reference_url: /) });
    expect(references.calls.map((call) => call.url).sort()).toEqual([LINK, missing('a'), missing('b')].sort());
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a repeat with its Idempotency-Key answers the batch without fetching again', async () => {
    const references = referenceResolver({ [LINK]: 'linked bytes' });
    const { deps, accountId, productId, avatarId } = await videoJobFixture({ references });
    const first = await createVideoBatch(deps, { accountId, productId, variants: [linked(productId, avatarId, LINK)], idempotencyKey: 'key-1' });
    expect(await createVideoBatch(deps, { accountId, productId, variants: [linked(productId, avatarId, LINK)], idempotencyKey: 'key-1' })).toEqual(first);
    expect(references.calls).toHaveLength(1);
  });
});

describe('quoteVideoBatch', () => {
  test('one unit per variant, the allowance as it is, nothing written; a repeat of a batch with its key quotes 0', async () => {
    const { deps, accountId, productId, jobs, ledger } = await videoJobFixture();
    const quote = await quoteVideoBatch(deps, { accountId, productId, variants: three(productId), idempotencyKey: 'key-1' });
    expect(quote).toMatchObject({ valid: true, units: 3, allowance: { limit: 3, used: 0, reserved: 0, remaining: 3 } });
    expect(await jobs.listRecent(accountId, 10)).toEqual({ items: [], nextBefore: null });
    await expect(quoteVideoBatch(deps, { accountId, productId, variants: [...three(productId), variant(productId, 'Four')] })).rejects.toMatchObject({ code: 'allowance_exhausted' });
    await createVideoBatch(deps, { accountId, productId, variants: three(productId), idempotencyKey: 'key-1' });
    expect(await quoteVideoBatch(deps, { accountId, productId, variants: three(productId), idempotencyKey: 'key-1' })).toMatchObject({ units: 0 });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 3 });
  });
});
