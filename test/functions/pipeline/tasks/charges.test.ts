/** ChargePreview, Finalize and MarkFailed: what each does to the job's allowance units. */
import { chargePreview } from '#pipeline/tasks/charge-preview';
import { finalize } from '#pipeline/tasks/finalize';
import { markFailed } from '#pipeline/tasks/mark-failed';
import { STATE_OF_STEP } from '#pipeline/steps';
import { jobObjectPrefix } from '#domain/jobs';
import { CANONICAL } from '#render';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';
import { RecordingMetrics } from '#test-doubles/memory/metrics';

const unit = (jobId: number, chargeNumber = 1) => ({ accountId: ACCOUNT, jobId, chargeNumber });
const OUTPUT = { video_id: 5, key: 'v.mp4', poster_key: 'v.jpg', duration_s: 9, size_bytes: 1234 };

async function composedJob(w: ReturnType<typeof pipelineWorld>, mode: 'auto' | 'preview' = 'auto') {
  const job = await w.queuedJob({ mode, hookText: 'Wait for it' });
  await w.jobs.update(ACCOUNT, job.id, { status: 'processing', stage: 'composing', output: OUTPUT });
  await w.blobs.putBuffer(`${jobObjectPrefix(ACCOUNT, job.id)}reaction.mp4`, Buffer.from('clip'), 'video/mp4');
  return job;
}

describe('charge_preview', () => {
  test('charges the round once, however often it runs, and records where the job is', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob({ mode: 'preview' });
    await w.jobs.update(ACCOUNT, job.id, { status: 'processing' });
    await chargePreview(w.payload(job, 'charge_preview'), w.deps);
    await chargePreview(w.payload(job, 'charge_preview'), w.deps);
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'charged' });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 1, reserved: 0 });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ charged_units: 1, resume_at: STATE_OF_STEP.charge_preview });
  });
});

describe('finalize', () => {
  test('an auto job: charged, its video recorded with the hook it was made with, done, its working files gone', async () => {
    const w = pipelineWorld();
    const job = await composedJob(w);
    await finalize(w.payload(job, 'finalize'), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'done', stage: 'done', video_id: 5, charged_units: 1, output: null, resume_at: null });
    expect(await w.videos.get(ACCOUNT, 5)).toMatchObject({ job_id: job.id, key: 'v.mp4', width: CANONICAL.width, height: CANONICAL.height, size_bytes: 1234, hook_text: 'Wait for it' });
    expect(await w.blobs.listKeys(jobObjectPrefix(ACCOUNT, job.id))).toEqual([]);
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 1, reserved: 0 });
  });

  test('a preview job is not charged again: ChargePreview did it', async () => {
    const w = pipelineWorld();
    const job = await composedJob(w, 'preview');
    await w.ledger.charge(unit(job.id));
    await w.jobs.update(ACCOUNT, job.id, { charged_units: 1 });
    await finalize(w.payload(job, 'finalize'), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'done', charged_units: 1 });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 1, reserved: 0 });
  });

  test('re-run after a crash between the charge and the record: one charge, one video', async () => {
    const w = pipelineWorld();
    const job = await composedJob(w);
    await w.ledger.charge(unit(job.id));
    await finalize(w.payload(job, 'finalize'), w.deps);
    await finalize(w.payload(job, 'finalize'), w.deps);
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 1, reserved: 0 });
    expect((await w.videos.list(ACCOUNT, 1, 10)).total).toBe(1);
  });

  test('without a composed video it is an internal error, and nothing is charged', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await w.jobs.update(ACCOUNT, job.id, { status: 'processing' });
    await expect(finalize(w.payload(job, 'finalize'), w.deps)).rejects.toMatchObject({ code: 'internal_error' });
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'reserved' });
  });
});

describe('mark_failed', () => {
  const failure = { Error: 'Job.Failed', Cause: JSON.stringify({ code: 'generation_failed', message: 'the engine gave up' }) };

  test('records the error, releases what is only reserved, removes the files, and ends failed', async () => {
    const w = pipelineWorld();
    const job = await composedJob(w);
    await w.blobs.putBuffer('v.mp4', Buffer.from('video'), 'video/mp4');
    await markFailed(w.payload(job, 'mark_failed', { failure }), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({
      status: 'failed',
      stage: 'failed',
      error: { code: 'generation_failed', message: 'the engine gave up' },
      charged_units: 0,
      resume_at: null,
      output: null,
    });
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'released' });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 0, reserved: 0 });
    expect([...w.blobs.objects.keys()]).toEqual([]);
  });

  test('a charged preview stays charged: it was delivered', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob({ mode: 'preview' });
    await w.jobs.update(ACCOUNT, job.id, { status: 'preview_ready' });
    await w.ledger.charge(unit(job.id));
    await markFailed(w.payload(job, 'mark_failed', { failure }), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', charged_units: 1 });
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'charged' });
  });

  test('a re-run keeps the first error, and a finished job is not touched', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await w.jobs.update(ACCOUNT, job.id, { error: { code: 'input_deleted', message: 'first' } });
    await markFailed(w.payload(job, 'mark_failed', { failure }), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.error).toEqual({ code: 'input_deleted', message: 'first' });
    await markFailed(w.payload(job, 'mark_failed', { failure: { Error: 'States.Timeout' } }), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', error: { code: 'input_deleted', message: 'first' } });
  });
});

describe('what the ends of a job tell the metrics', () => {
  const failure = { Error: 'Job.Failed', Cause: JSON.stringify({ code: 'generation_failed', message: 'the engine gave up' }) };

  test('a finished job: done once, with the units it was charged, however often Finalize runs', async () => {
    const w = pipelineWorld();
    const metrics = new RecordingMetrics();
    const job = await composedJob(w);
    await finalize(w.payload(job, 'finalize'), { ...w.deps, metrics });
    await finalize(w.payload(job, 'finalize'), { ...w.deps, metrics });
    expect(metrics.events).toEqual([{ name: 'JobsDone' }, { name: 'UnitsCharged', units: 1 }]);
  });

  test('a failed job: failed once by its error code; a delivered preview counts as charged', async () => {
    const w = pipelineWorld();
    const metrics = new RecordingMetrics();
    const job = await w.queuedJob({ mode: 'preview' });
    await w.jobs.update(ACCOUNT, job.id, { status: 'preview_ready' });
    await w.ledger.charge(unit(job.id));
    await markFailed(w.payload(job, 'mark_failed', { failure }), { ...w.deps, metrics });
    await markFailed(w.payload(job, 'mark_failed', { failure }), { ...w.deps, metrics });
    expect(metrics.events).toEqual([{ name: 'JobsFailed', code: 'generation_failed' }, { name: 'UnitsCharged', units: 1 }]);
  });

  test('a failed job that was never charged tells no charge', async () => {
    const w = pipelineWorld();
    const metrics = new RecordingMetrics();
    const job = await composedJob(w);
    await markFailed(w.payload(job, 'mark_failed', { failure }), { ...w.deps, metrics });
    expect(metrics.named('UnitsCharged')).toEqual([]);
    expect(metrics.named('JobsFailed')).toEqual([{ name: 'JobsFailed', code: 'generation_failed' }]);
  });
});
