/**
 * What every JobStore must do with its allowance ledger, run against the DynamoDB store and the
 * in-memory double the use-case tests use, so the double keeps the same conditions: the writes that
 * reserve a unit are all or nothing, and a refused condition writes nothing.
 */
import type { Video } from '#domain/video';
import { BATCH_LIMITS, type VideoBatch } from '#domain/batches';
import { newJob, type StoredJob } from '#domain/job-execution';
import type { AllowanceLedger, Reservation } from '#ports/allowance-ledger';
import type { JobStore } from '#ports/job-store';
import type { VideoLibrary } from '#ports/video-library';
import { NOW, PERIOD, previewReadyJob, promptRequest } from './video-jobs';

export interface JobStoreUnderTest {
  jobs: JobStore;
  ledger: AllowanceLedger;
  /** The library finishWithVideo records into. */
  videos: VideoLibrary;
}

export function jobStoreContract(stores: () => JobStoreUnderTest): void {
  let nextAccount = 5000;
  const freshAccount = () => nextAccount++;
  const unitOf = (accountId: number, jobId: number, chargeNumber = 1, limit = 3): Reservation => ({ ref: { accountId, jobId, chargeNumber }, period: PERIOD, limit });
  const queuedJob = async (accountId: number): Promise<StoredJob> => newJob(accountId, await stores().jobs.newJobId(accountId), promptRequest(1), null, 7, NOW);
  const claim = { keyHash: 'key-hash', requestHash: 'request-hash' };

  describe('the job store', () => {
    test('create writes the job, its Idempotency-Key and its unit together', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const job = await queuedJob(accountId);
      expect(await jobs.create(job, claim, unitOf(accountId, job.id), NOW)).toEqual({ written: true });
      expect(await jobs.get(accountId, job.id)).toEqual(job);
      expect(await jobs.getIdempotency(accountId, claim.keyHash, NOW)).toEqual({ job_id: job.id, request_hash: claim.requestHash });
      expect(await ledger.entry(unitOf(accountId, job.id).ref)).toEqual({ state: 'reserved', period: PERIOD });
      expect((await jobs.listActive()).filter((j) => j.accountId === accountId)).toEqual([{ accountId, jobId: job.id }]);
    });

    test('lists every job in flight, however many, and none that ended', async () => {
      const { jobs } = stores();
      const made: StoredJob[] = [];
      for (let i = 0; i < 24; i++) {
        const accountId = freshAccount();
        const job = await queuedJob(accountId);
        await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
        made.push(job);
      }
      for (const job of made.slice(0, 4)) await jobs.update(job.account_id, job.id, { status: 'failed', stage: 'failed' });
      const mine = new Set(made.map((job) => job.account_id));
      const listed = (await jobs.listActive()).filter((ref) => mine.has(ref.accountId));
      expect(listed.map((ref) => ref.jobId)).toEqual([...listed.map((ref) => ref.jobId)].sort((a, b) => a - b));
      const byAccount = (a: { accountId: number }, b: { accountId: number }) => a.accountId - b.accountId;
      expect([...listed].sort(byAccount)).toEqual(made.slice(4).map((job) => ({ accountId: job.account_id, jobId: job.id })));
    });

    describe("the sweeper's candidates", () => {
      const HOUR = 3600_000;
      const cutoffs = (at: Date) => ({ unstartedBefore: new Date(at.getTime() - HOUR), handedBefore: new Date(at.getTime() - HOUR / 12) });
      const candidatesOf = async (jobs: JobStore, accountId: number, at: Date) => {
        const found = [];
        for await (const candidate of jobs.sweepCandidates(cutoffs(at))) if (candidate.accountId === accountId) found.push(candidate);
        return found;
      };

      test('a job written long ago and never started is one, until a step starts it', async () => {
        const { jobs } = stores();
        const accountId = freshAccount();
        const job = await queuedJob(accountId);
        await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
        expect(await candidatesOf(jobs, accountId, new Date(NOW.getTime() + HOUR / 2))).toEqual([]);
        expect(await candidatesOf(jobs, accountId, new Date(NOW.getTime() + 2 * HOUR))).toEqual([{ accountId, jobId: job.id, mark: expect.any(String) }]);
        await jobs.update(accountId, job.id, { status: 'processing', stage: 'preparing', handed_decision: null });
        expect(await candidatesOf(jobs, accountId, new Date(NOW.getTime() + 2 * HOUR))).toEqual([]);
      });

      test('a preview waiting at preview_ready is none however long it waits; a decision handed over is one after its grace', async () => {
        const { jobs } = stores();
        const accountId = freshAccount();
        const job = await queuedJob(accountId);
        await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
        await jobs.update(accountId, job.id, { status: 'preview_ready', stage: 'awaiting_approval', task_token: 't' });
        expect(await candidatesOf(jobs, accountId, new Date(NOW.getTime() + 30 * 24 * HOUR))).toEqual([]);
        const at = new Date(NOW.getTime() + 24 * HOUR);
        await jobs.update(accountId, job.id, { status: 'processing', handed_decision: { token: 't', decision: { action: 'approve' }, at: at.toISOString() } });
        expect(await candidatesOf(jobs, accountId, new Date(at.getTime() + HOUR / 60))).toEqual([]);
        expect(await candidatesOf(jobs, accountId, new Date(at.getTime() + HOUR))).toEqual([{ accountId, jobId: job.id, mark: expect.any(String) }]);
      });

      test('quiet takes a candidate out, unless its watch changed since it was read', async () => {
        const { jobs } = stores();
        const accountId = freshAccount();
        const job = await queuedJob(accountId);
        await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
        const later = new Date(NOW.getTime() + 2 * HOUR);
        const [seen] = await candidatesOf(jobs, accountId, later);
        const handed = { token: 't', decision: { action: 'approve' as const }, at: NOW.toISOString() };
        await jobs.update(accountId, job.id, { handed_decision: handed });
        expect(await jobs.quiet(seen!, (await jobs.get(accountId, job.id))!)).toBe(false);
        const [again] = await candidatesOf(jobs, accountId, later);
        expect(again!.mark).not.toBe(seen!.mark);
        expect(await jobs.quiet(again!, (await jobs.get(accountId, job.id))!)).toBe(true);
        expect(await candidatesOf(jobs, accountId, later)).toEqual([]);
        expect((await jobs.listActive()).filter((ref) => ref.accountId === accountId)).toEqual([{ accountId, jobId: job.id }]);
      });
    });

    test("keeps a round's provider requests under slots named by model and seed, and drops them when set to null", async () => {
      const { jobs } = stores();
      const accountId = freshAccount();
      const job = await queuedJob(accountId);
      await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
      const request = { requestId: 'f1e2', statusUrl: 'https://queue.fal.run/a/b/requests/f1e2/status', responseUrl: 'https://queue.fal.run/a/b/requests/f1e2', cancelUrl: 'https://queue.fal.run/a/b/requests/f1e2/cancel' };
      const kept = { round: 0, slots: { 'fal-ai/kling-video/v2.6/pro/image-to-video#42': request, 'fal-ai/kokoro/american-english#42': { ...request, requestId: 'a.b' } } };
      await jobs.update(accountId, job.id, { provider_requests: kept });
      expect((await jobs.get(accountId, job.id))?.provider_requests).toEqual(kept);
      await jobs.update(accountId, job.id, { provider_requests: null });
      expect((await jobs.get(accountId, job.id))?.provider_requests ?? null).toBeNull();
    });

    test("lists an account's jobs newest first in slices that continue with nextBefore, and no other account's", async () => {
      const { jobs } = stores();
      const accountId = freshAccount();
      const other = freshAccount();
      const made: StoredJob[] = [];
      for (let i = 0; i < 5; i++) {
        const job = await queuedJob(accountId);
        await jobs.create(job, undefined, unitOf(accountId, job.id, 1, 10), NOW);
        made.push(job);
      }
      const foreign = await queuedJob(other);
      await jobs.create(foreign, undefined, unitOf(other, foreign.id), NOW);
      const ids = made.map((job) => job.id).reverse();

      const first = await jobs.listRecent(accountId, 2);
      expect(first.items.map((job) => job.id)).toEqual(ids.slice(0, 2));
      expect(first.items[0]).toEqual(made[4]);
      expect(first.nextBefore).toBe(ids[1]);
      const second = await jobs.listRecent(accountId, 2, first.nextBefore!);
      expect(second.items.map((job) => job.id)).toEqual(ids.slice(2, 4));
      const last = await jobs.listRecent(accountId, 2, second.nextBefore!);
      expect(last).toEqual({ items: [made[0]], nextBefore: null });
      expect(await jobs.listRecent(accountId, 5)).toMatchObject({ nextBefore: null });
      expect(await jobs.listRecent(accountId, 3, 1)).toEqual({ items: [], nextBefore: null });
      expect(await jobs.listRecent(freshAccount(), 3)).toEqual({ items: [], nextBefore: null });
    });

    test('an Idempotency-Key another job holds: nothing is written', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const first = await queuedJob(accountId);
      await jobs.create(first, claim, unitOf(accountId, first.id), NOW);
      const second = await queuedJob(accountId);
      expect(await jobs.create(second, claim, unitOf(accountId, second.id), NOW)).toEqual({ written: false, reason: 'idempotency_taken' });
      expect(await jobs.get(accountId, second.id)).toBeUndefined();
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    });

    test('a key is remembered for a day', async () => {
      const { jobs } = stores();
      const accountId = freshAccount();
      const job = await queuedJob(accountId);
      await jobs.create(job, claim, unitOf(accountId, job.id), NOW);
      expect(await jobs.getIdempotency(accountId, claim.keyHash, new Date(NOW.getTime() + 23 * 3600_000))).toBeDefined();
      expect(await jobs.getIdempotency(accountId, claim.keyHash, new Date(NOW.getTime() + 25 * 3600_000))).toBeUndefined();
    });

    test('a full allowance refuses the job: 402 and nothing is written', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const first = await queuedJob(accountId);
      await jobs.create(first, undefined, unitOf(accountId, first.id, 1, 1), NOW);
      const second = await queuedJob(accountId);
      await expect(jobs.create(second, claim, unitOf(accountId, second.id, 1, 1), NOW)).rejects.toMatchObject({ code: 'allowance_exhausted' });
      expect(await jobs.get(accountId, second.id)).toBeUndefined();
      expect(await jobs.getIdempotency(accountId, claim.keyHash, NOW)).toBeUndefined();
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    });

    describe('a batch', () => {
      /** `count` queued jobs of a new batch, with their units under `limit`. */
      const newBatch = async (accountId: number, count: number, limit: number) => {
        const batchId = await stores().jobs.newBatchId(accountId);
        const jobs: StoredJob[] = [];
        for (let i = 0; i < count; i++) jobs.push(newJob(accountId, await stores().jobs.newJobId(accountId), promptRequest(1), null, i, NOW, batchId));
        const batch: VideoBatch = { id: batchId, account_id: accountId, product_id: 1, job_ids: jobs.map((job) => job.id), created_at: NOW.toISOString() };
        return { batch, jobs, units: jobs.map((job) => unitOf(accountId, job.id, 1, limit)) };
      };

      test(`createBatch writes the batch, all its jobs (up to ${BATCH_LIMITS.maxVariants}), one unit each and its key together`, async () => {
        const { jobs, ledger } = stores();
        const accountId = freshAccount();
        const { batch, jobs: made, units } = await newBatch(accountId, BATCH_LIMITS.maxVariants, 25);
        expect(await jobs.createBatch(batch, made, claim, units, NOW)).toEqual({ written: true });
        expect(await jobs.getBatch(accountId, batch.id)).toEqual(batch);
        expect(await jobs.getBatch(accountId + 1, batch.id)).toBeUndefined();
        expect(await jobs.getBatchIdempotency(accountId, claim.keyHash, NOW)).toEqual({ batch_id: batch.id, request_hash: claim.requestHash });
        // A batch's key is not a single job's.
        expect(await jobs.getIdempotency(accountId, claim.keyHash, NOW)).toBeUndefined();
        for (const job of made) expect(await jobs.get(accountId, job.id)).toEqual(job);
        expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: BATCH_LIMITS.maxVariants });
        expect(await jobs.getBatchIdempotency(accountId, claim.keyHash, new Date(NOW.getTime() + 25 * 3600_000))).toBeUndefined();
      });

      test('an allowance that cannot cover every unit refuses the whole batch: 402 and nothing is written', async () => {
        const { jobs, ledger } = stores();
        const accountId = freshAccount();
        const single = await queuedJob(accountId);
        await jobs.create(single, undefined, unitOf(accountId, single.id, 1, 4), NOW);
        const { batch, jobs: made, units } = await newBatch(accountId, 4, 4);
        await expect(jobs.createBatch(batch, made, claim, units, NOW)).rejects.toMatchObject({ code: 'allowance_exhausted' });
        // More units than the whole limit, on an account with no counter yet.
        const fresh = freshAccount();
        const over = await newBatch(fresh, 4, 3);
        await expect(jobs.createBatch(over.batch, over.jobs, undefined, over.units, NOW)).rejects.toMatchObject({ code: 'allowance_exhausted' });
        expect(await jobs.getBatch(accountId, batch.id)).toBeUndefined();
        expect(await jobs.getBatchIdempotency(accountId, claim.keyHash, NOW)).toBeUndefined();
        for (const job of made) expect(await jobs.get(accountId, job.id)).toBeUndefined();
        expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
        expect(await ledger.periodUsage(fresh, PERIOD)).toEqual({ used: 0, reserved: 0 });

        const fits = await newBatch(accountId, 3, 4);
        expect(await jobs.createBatch(fits.batch, fits.jobs, claim, fits.units, NOW)).toEqual({ written: true });
        expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 4 });
      });

      test('a key another batch holds: nothing is written', async () => {
        const { jobs, ledger } = stores();
        const accountId = freshAccount();
        const first = await newBatch(accountId, 2, 10);
        await jobs.createBatch(first.batch, first.jobs, claim, first.units, NOW);
        const second = await newBatch(accountId, 2, 10);
        expect(await jobs.createBatch(second.batch, second.jobs, claim, second.units, NOW)).toEqual({ written: false, reason: 'idempotency_taken' });
        expect(await jobs.getBatch(accountId, second.batch.id)).toBeUndefined();
        for (const job of second.jobs) expect(await jobs.get(accountId, job.id)).toBeUndefined();
        expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 2 });
      });
    });

    test('withdrawCreated takes the job, its key and its unit back while it is queued, and nothing once it moved', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const moved = await queuedJob(accountId);
      await jobs.create(moved, undefined, unitOf(accountId, moved.id), NOW);
      await jobs.update(accountId, moved.id, { status: 'processing' });
      expect(await jobs.withdrawCreated(accountId, moved.id, undefined, unitOf(accountId, moved.id))).toBe(false);
      expect(await ledger.entry(unitOf(accountId, moved.id).ref)).toMatchObject({ state: 'reserved' });

      const job = await queuedJob(accountId);
      await jobs.create(job, claim, unitOf(accountId, job.id), NOW);
      expect(await jobs.withdrawCreated(accountId, job.id, claim.keyHash, unitOf(accountId, job.id))).toBe(true);
      expect(await jobs.get(accountId, job.id)).toBeUndefined();
      expect(await jobs.getIdempotency(accountId, claim.keyHash, NOW)).toBeUndefined();
      expect(await ledger.entry(unitOf(accountId, job.id).ref)).toBeUndefined();
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    });

    test('update applies only while its condition holds', async () => {
      const { jobs } = stores();
      const accountId = freshAccount();
      const job = await queuedJob(accountId);
      await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
      expect(await jobs.update(accountId, job.id, { stage: 'preparing' }, { statusIn: ['processing'] })).toBeUndefined();
      expect(await jobs.update(accountId, job.id, { stage: 'preparing' }, { taskToken: 'not-pending' })).toBeUndefined();
      expect(await jobs.update(accountId, 99_999_999, { stage: 'preparing' })).toBeUndefined();
      expect(await jobs.update(accountId, job.id, { stage: 'preparing', task_token: 't' }, { statusIn: ['queued'], taskToken: null })).toMatchObject({ stage: 'preparing', task_token: 't' });
      expect(await jobs.get(accountId, job.id)).toMatchObject({ stage: 'preparing' });
    });

    test('a decision on its way is kept whole on the job, and cleared by null', async () => {
      const { jobs } = stores();
      const accountId = freshAccount();
      const job = await queuedJob(accountId);
      await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
      const handed = { token: 'token-9', decision: { action: 'regenerate' as const, regenerations: 2 }, at: NOW.toISOString() };
      await jobs.update(accountId, job.id, { handed_decision: handed });
      expect((await jobs.get(accountId, job.id))!.handed_decision).toEqual(handed);
      await jobs.update(accountId, job.id, { handed_decision: null });
      expect((await jobs.get(accountId, job.id))!.handed_decision ?? null).toBeNull();
    });

    test('startRound moves the job and reserves the round\'s unit together; a condition that fails writes neither', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const waiting = await putPreviewReady(stores(), accountId);
      const round = { status: 'queued' as const, regenerations: 1 };
      expect(await jobs.startRound(accountId, waiting.id, round, { statusIn: ['preview_ready'], taskToken: 'stale' }, unitOf(accountId, waiting.id, 2), NOW)).toBe(false);
      expect(await ledger.entry(unitOf(accountId, waiting.id, 2).ref)).toBeUndefined();
      expect(await jobs.startRound(accountId, waiting.id, round, { statusIn: ['preview_ready'], taskToken: 'token-1' }, unitOf(accountId, waiting.id, 2), NOW)).toBe(true);
      expect(await jobs.get(accountId, waiting.id)).toMatchObject({ status: 'queued', regenerations: 1 });
      expect(await ledger.entry(unitOf(accountId, waiting.id, 2).ref)).toMatchObject({ state: 'reserved' });
    });

    test('restore puts the snapshot back and takes the unit back together, only while the job is as the condition says', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const waiting = await putPreviewReady(stores(), accountId);
      const unit = unitOf(accountId, waiting.id, 2);
      await jobs.startRound(accountId, waiting.id, { status: 'queued', regenerations: 1, task_token: null }, { taskToken: 'token-1' }, unit, NOW);
      expect(await jobs.restore(waiting, { statusIn: ['queued'], regenerations: 2 }, unit)).toBe(false);
      expect(await ledger.entry(unit.ref)).toMatchObject({ state: 'reserved' });
      expect(await jobs.restore(waiting, { statusIn: ['queued'], taskToken: null, regenerations: 1 }, unit)).toBe(true);
      expect(await jobs.get(accountId, waiting.id)).toEqual(waiting);
      expect(await ledger.entry(unit.ref)).toBeUndefined();
    });

    test('finishWithVideo records the video, ends the job and charges its unit together, once, only from processing', async () => {
      const { jobs, ledger } = stores();
      const accountId = freshAccount();
      const job = await queuedJob(accountId);
      const { ref } = unitOf(accountId, job.id);
      await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
      const video = videoOf(accountId, job.id, job.id);
      const settlement = { chargedUnits: 1, charge: ref };
      expect(await jobs.finishWithVideo(job, video, settlement, NOW)).toBe(false);
      expect(await ledger.entry(ref)).toMatchObject({ state: 'reserved' });
      await jobs.update(accountId, job.id, { status: 'processing' });
      expect(await jobs.finishWithVideo(job, video, settlement, NOW)).toBe(true);
      expect(await jobs.get(accountId, job.id)).toMatchObject({ status: 'done', video_id: video.id, charged_units: 1, output: null });
      expect(await ledger.entry(ref)).toMatchObject({ state: 'charged' });
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
      expect(await jobs.finishWithVideo(job, video, settlement, NOW)).toBe(false);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
      expect((await jobs.listActive()).filter((j) => j.accountId === accountId)).toEqual([]);
    });

    test('finishWithVideo leaves a unit already charged as it is, and writes nothing for a released one', async () => {
      const { jobs, ledger, videos } = stores();
      const accountId = freshAccount();
      const [charged, released] = [await queuedJob(accountId), await queuedJob(accountId)];
      for (const job of [charged, released]) {
        await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
        await jobs.update(accountId, job.id, { status: 'processing' });
      }
      await ledger.charge(unitOf(accountId, charged.id).ref, NOW);
      expect(await jobs.finishWithVideo(charged, videoOf(accountId, charged.id, charged.id), { chargedUnits: 1, charge: unitOf(accountId, charged.id).ref }, NOW)).toBe(true);
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 1 });

      await ledger.release(unitOf(accountId, released.id).ref, NOW);
      const refused = jobs.finishWithVideo(released, videoOf(accountId, released.id, released.id), { chargedUnits: 1, charge: unitOf(accountId, released.id).ref }, NOW);
      await expect(refused).rejects.toThrow(/released/);
      expect(await jobs.get(accountId, released.id)).toMatchObject({ status: 'processing', video_id: null });
      expect(await videos.get(accountId, released.id)).toBeUndefined();
      expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
    });

    test("a video's retention and file expiry are kept with it; a video without them reads back without them", async () => {
      const { jobs, videos } = stores();
      const accountId = freshAccount();
      const [kept, older] = [await queuedJob(accountId), await queuedJob(accountId)];
      for (const job of [kept, older]) {
        await jobs.create(job, undefined, unitOf(accountId, job.id, 1, 10), NOW);
        await jobs.update(accountId, job.id, { status: 'processing' });
      }
      const retained = { ...videoOf(accountId, kept.id, kept.id), retention_days: 30, file_expires_at: '2026-12-26T00:00:00.000Z' };
      await jobs.finishWithVideo(kept, retained, { chargedUnits: 1, charge: unitOf(accountId, kept.id).ref }, NOW);
      await jobs.finishWithVideo(older, videoOf(accountId, older.id, older.id), { chargedUnits: 1, charge: unitOf(accountId, older.id).ref }, NOW);
      expect(await videos.get(accountId, kept.id)).toEqual(retained);
      expect(await videos.get(accountId, older.id)).toEqual(videoOf(accountId, older.id, older.id));
    });

    test('finished videos are listed newest first with their count, read only by their account, deleted once', async () => {
      const { videos } = stores();
      const accountId = freshAccount();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await finishedVideo(stores(), accountId)).id);
      expect(await videos.list(accountId, 1, 2)).toEqual({ items: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: ids[1] })], total: 3 });
      expect(await videos.list(accountId, 2, 2)).toEqual({ items: [expect.objectContaining({ id: ids[0] })], total: 3 });
      expect(await videos.get(accountId + 1000, ids[0]!)).toBeUndefined();
      expect(await videos.delete(accountId, ids[1]!)).toMatchObject({ id: ids[1], account_id: accountId });
      expect(await videos.delete(accountId, ids[1]!)).toBeUndefined();
      expect(await videos.list(accountId, 1, 10)).toEqual({ items: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: ids[0] })], total: 2 });
    });
  });

  const videoOf = (accountId: number, jobId: number, id: number): Video => ({
    id,
    account_id: accountId,
    job_id: jobId,
    product_id: 1,
    key: `v${id}.mp4`,
    poster_key: `p${id}.jpg`,
    duration_s: 9,
    width: 1080,
    height: 1920,
    size_bytes: 10,
    created_at: NOW.toISOString(),
  });

  /** A job run to done with its video, as Finalize leaves it. */
  async function finishedVideo({ jobs, videos }: JobStoreUnderTest, accountId: number): Promise<Video> {
    const job = await queuedJob(accountId);
    await jobs.create(job, undefined, unitOf(accountId, job.id, 1, 10), NOW);
    await jobs.update(accountId, job.id, { status: 'processing' });
    const id = await videos.newVideoId(accountId);
    const video = videoOf(accountId, job.id, id);
    expect(await jobs.finishWithVideo(job, video, { chargedUnits: 1, charge: unitOf(accountId, job.id, 1, 10).ref }, NOW)).toBe(true);
    return video;
  }

  /** A job at preview_ready with its first unit held, as the pipeline leaves it. */
  async function putPreviewReady({ jobs }: JobStoreUnderTest, accountId: number): Promise<StoredJob> {
    const job = await queuedJob(accountId);
    await jobs.create(job, undefined, unitOf(accountId, job.id), NOW);
    const ready = previewReadyJob(accountId, job.id);
    const { id: _id, account_id: _account, created_at: _created, ...changes } = ready;
    return (await jobs.update(accountId, job.id, changes, {}, NOW))!;
  }
}
