import { regenerateVideoJob } from '#use-cases/regenerate-video-job';
import { takesOf } from '#domain/takes';
import { clipOnDisk, NOW, PERIOD, previewReadyJob, previewReadyJobWithTakes, videoJobFixture } from '#test-support/video-jobs';
import { createUpload } from '#use-cases/create-upload';
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
import { faceFinder } from '#test-doubles/faces';
import { referenceResolver } from '#test-doubles/references';
import { EngineError } from '#ports/engine';

const motionPreview = (accountId: number, id: number) =>
  previewReadyJob(accountId, id, { method: 'motion', prompt: null, avatar_id: 1, video_source: 'upload', reference_key: `accounts/${accountId}/jobs/${id}/reference-0` });

describe('regenerateVideoJob', () => {
  test('moves the job to its next round with the new prompt, reserves that round\'s unit and hands the decision over', async () => {
    const { deps, accountId, jobs, ledger, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    const job = await regenerateVideoJob(deps, { accountId, jobId: 1, changes: { prompt: 'now laughing' } });
    expect(job).toMatchObject({ status: 'queued', stage: 'queued', regenerations: 1, prompt: 'now laughing', preview: null, reaction: null, task_token: null, resume_at: 'GenerateReaction' });
    expect(await ledger.entry({ accountId, jobId: 1, chargeNumber: 2 })).toEqual({ state: 'reserved', period: PERIOD });
    expect(runner.decisions).toEqual([{ token: 'token-1', decision: { action: 'regenerate', regenerations: 1 } }]);
  });

  test('the takes shown so far are kept: the next round only adds one, and their files stay', async () => {
    const { deps, accountId, jobs, blobs } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJobWithTakes(accountId, 1, ['shocked', 'laughing']));
    for (const take of takesOf(waiting)) await blobs.putBuffer(take.preview.key, Buffer.from(`take ${take.take}`), 'video/mp4');
    const job = await regenerateVideoJob(deps, { accountId, jobId: 1, changes: { prompt: 'crying' } });
    expect(job).toMatchObject({ regenerations: 2, reaction: null, preview: null, takes: waiting.takes });
    expect(takesOf(job).map((take) => [take.take, take.options.prompt])).toEqual([
      [1, 'shocked'],
      [2, 'laughing'],
    ]);
    expect([...blobs.objects.keys()].sort()).toEqual(takesOf(waiting).map((take) => take.preview.key).sort());
  });

  test('a job that showed its preview before takes were recorded keeps that preview as a take when it regenerates', async () => {
    const { deps, accountId, jobs } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJob(accountId, 1, { takes: undefined }));
    const job = await regenerateVideoJob(deps, { accountId, jobId: 1, changes: {} });
    expect(takesOf(job)).toEqual([expect.objectContaining({ take: 1, reaction: waiting.reaction, preview: waiting.preview, options: expect.objectContaining({ prompt: 'amazed' }) })]);
  });

  test('a new caption style and duration are the next round\'s (its preview shows them); left out, the job keeps its own', async () => {
    const { deps, accountId, jobs } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    expect(await regenerateVideoJob(deps, { accountId, jobId: 1, changes: { hook_style: 'glow', hook_duration: 'full' } })).toMatchObject({ hook_style: 'glow', hook_duration: 'full', regenerations: 1 });
    jobs.put(previewReadyJob(accountId, 2, { hook_style: 'box' }));
    expect(await regenerateVideoJob(deps, { accountId, jobId: 2, changes: {} })).toMatchObject({ hook_style: 'box' });
  });

  test('a new uploaded reference clip is stored for the new round', async () => {
    const { deps, accountId, jobs, blobs } = await videoJobFixture();
    jobs.put(motionPreview(accountId, 1));
    const clip = await clipOnDisk('second clip');
    try {
      const job = await regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: clip });
      expect(job).toMatchObject({ video_source: 'upload', reference_url: null, reference_key: expect.stringMatching(`^accounts/${accountId}/jobs/1/reference-1-`) });
      expect(blobs.objects.get(job.reference_key!)?.data.toString()).toBe('second clip');
    } finally {
      await clip.cleanup();
    }
  });

  test('concurrent regenerates: exactly one moves the job and reserves, the others are 409 and leave no upload', async () => {
    const { deps, accountId, jobs, ledger, blobs, runner } = await videoJobFixture({ plan: 'pro' });
    jobs.put(motionPreview(accountId, 1));
    const clip = await clipOnDisk();
    try {
      const outcomes = await Promise.allSettled([1, 2, 3].map(() => regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: clip })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) expect(o).toMatchObject({ reason: { code: 'conflict' } });
      expect(runner.decisions).toHaveLength(1);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
      // Each request uploaded under its own key; only the winner's is left, and it is the one the job names.
      expect([...blobs.objects.keys()]).toEqual([(await jobs.get(accountId, 1))!.reference_key]);
    } finally {
      await clip.cleanup();
    }
  });

  test('a runner that cannot be reached: 503, the job is back at preview_ready, the unit and the upload are taken back', async () => {
    const { deps, accountId, jobs, ledger, blobs, runner } = await videoJobFixture();
    const waiting = jobs.put(motionPreview(accountId, 1));
    runner.failDecision = new Error('states unreachable');
    const clip = await clipOnDisk();
    try {
      await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: clip })).rejects.toMatchObject({
        code: 'upstream_unavailable',
        message: expect.stringContaining('nothing was charged'),
      });
      expect(await jobs.get(accountId, 1)).toEqual(waiting);
      expect(await ledger.entry({ accountId, jobId: 1, chargeNumber: 2 })).toBeUndefined();
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
      expect(blobs.objects.size).toBe(0);
    } finally {
      await clip.cleanup();
    }
  });

  test('a full allowance is 402 and the preview stays as it was', async () => {
    const { deps, accountId, jobs, ledger, runner } = await videoJobFixture({ plan: 'free' });
    const waiting = jobs.put(previewReadyJob(accountId, 1));
    for (let jobId = 101; jobId <= 103; jobId++) ledger.reserve({ ref: { accountId, jobId, chargeNumber: 1 }, period: PERIOD, limit: 3 }, NOW);
    await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: { prompt: 'again' } })).rejects.toMatchObject({ code: 'allowance_exhausted' });
    expect(await jobs.get(accountId, 1)).toEqual(waiting);
    expect(runner.decisions).toEqual([]);
  });

  test('a reuse job, an auto job, a job at the re-roll cap or not at preview_ready is 409; an unready avatar is 409', async () => {
    const { deps, accountId, jobs, avatarId } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1, { method: 'reuse', prompt: null, reaction_id: 3 }));
    jobs.put(previewReadyJob(accountId, 2, { mode: 'auto' }));
    jobs.put(previewReadyJob(accountId, 3, { regenerations: 20 }));
    jobs.put(previewReadyJob(accountId, 4, { status: 'done' }));
    for (const jobId of [1, 2, 3, 4]) await expect(regenerateVideoJob(deps, { accountId, jobId, changes: {} })).rejects.toMatchObject({ code: 'conflict' });
    await deps.avatars.settle(accountId, avatarId, { status: 'processing', image_key: null, width: null, height: null, engine: null, seed: null, error: null }, NOW);
    jobs.put(motionPreview(accountId, 5));
    await expect(regenerateVideoJob(deps, { accountId, jobId: 5, changes: { avatar_id: 42 } })).rejects.toMatchObject({ code: 'not_found' });
  });

  describe('with reference_video_upload_id (a direct upload)', () => {
    async function withUpload(options: { plan?: 'pro' } = {}) {
      const fixture = await videoJobFixture(options);
      const uploads = new MemoryUploadStore();
      const deps = { ...fixture.deps, uploads };
      const { upload } = await createUpload(deps, fixture.accountId, { purpose: 'reference_video', content_type: 'video/mp4', size_bytes: 11 });
      await fixture.blobs.putBuffer(upload.key, Buffer.from('second clip'), 'video/mp4');
      fixture.jobs.put(motionPreview(fixture.accountId, 1));
      return { ...fixture, deps, uploads, upload };
    }

    test('the uploaded clip is stored for the new round; the upload is used and its object gone', async () => {
      const { deps, accountId, blobs, uploads, upload } = await withUpload();
      const job = await regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: { uploadId: upload.id } });
      expect(job).toMatchObject({ video_source: 'upload', reference_key: expect.stringMatching(`^accounts/${accountId}/jobs/1/reference-1-`) });
      expect(blobs.objects.get(job.reference_key!)?.data.toString()).toBe('second clip');
      expect(blobs.objects.has(upload.key)).toBe(false);
      expect(await uploads.get(accountId, upload.id)).toMatchObject({ status: 'used' });
    });

    test('concurrent regenerates naming one upload: exactly one moves the job, the others are 409', async () => {
      const { deps, accountId, ledger, runner, upload } = await withUpload({ plan: 'pro' });
      const outcomes = await Promise.allSettled([1, 2, 3].map(() => regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: { uploadId: upload.id } })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) expect(o).toMatchObject({ reason: { code: 'conflict' } });
      expect(runner.decisions).toHaveLength(1);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    });

    test('a round that cannot be handed over gives the upload back with its file', async () => {
      const { deps, accountId, jobs, blobs, runner, uploads, upload } = await withUpload();
      const waiting = await jobs.get(accountId, 1);
      runner.failDecision = new Error('states unreachable');
      await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: {}, referenceVideo: { uploadId: upload.id } })).rejects.toMatchObject({ code: 'upstream_unavailable' });
      expect(await jobs.get(accountId, 1)).toEqual(waiting);
      expect([...blobs.objects.keys()]).toEqual([upload.key]);
      expect(await uploads.get(accountId, upload.id)).toMatchObject({ status: 'pending' });
    });
  });

  describe('with a new reference_url (video_source=link)', () => {
    const LINK = 'https://v16m.tiktokcdn.com/video/face.mp4';

    test('the link is fetched and judged at the door and stored for the new round; the job says link', async () => {
      const references = referenceResolver({ [LINK]: 'linked bytes' });
      const { deps, accountId, jobs, blobs, ledger } = await videoJobFixture({ references });
      jobs.put(motionPreview(accountId, 1));
      const job = await regenerateVideoJob(deps, { accountId, jobId: 1, changes: { video_source: 'link', reference_url: LINK } });
      expect(job).toMatchObject({ regenerations: 1, video_source: 'link', reference_url: LINK, reference_key: expect.stringMatching(`^accounts/${accountId}/jobs/1/reference-1-`) });
      expect(blobs.objects.get(job.reference_key!)?.data.toString()).toBe('linked bytes');
      expect(references.calls).toHaveLength(1);
      expect(await ledger.entry({ accountId, jobId: 1, chargeNumber: 2 })).toEqual({ state: 'reserved', period: PERIOD });
    });

    test('a faceless linked clip is 422 no_face naming reference_url: the preview stays as it was, nothing reserved or stored', async () => {
      const { deps, accountId, jobs, blobs, ledger, runner } = await videoJobFixture({ references: referenceResolver({ [LINK]: 'a landscape' }), faces: faceFinder({ clip: false }) });
      const waiting = jobs.put(motionPreview(accountId, 1));
      await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: { reference_url: LINK } })).rejects.toMatchObject({
        code: 'no_face',
        message: expect.stringMatching(/^reference_url: /),
      });
      expect(await jobs.get(accountId, 1)).toEqual(waiting);
      expect(blobs.objects.size).toBe(0);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
      expect(runner.decisions).toEqual([]);
    });

    test('a link server that does not answer is 503 with Retry-After; the preview stays as it was', async () => {
      const busy = new EngineError('provider_unavailable', "The reference link's server did not answer within 5 s; try again later.");
      const { deps, accountId, jobs, ledger } = await videoJobFixture({ references: referenceResolver({ [LINK]: busy }) });
      const waiting = jobs.put(motionPreview(accountId, 1));
      await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: { reference_url: LINK } })).rejects.toMatchObject({ code: 'upstream_unavailable', headers: { 'retry-after': '30' } });
      expect(await jobs.get(accountId, 1)).toEqual(waiting);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    });
  });
});
