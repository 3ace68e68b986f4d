/**
 * An execution that ended FAILED, TIMED_OUT or ABORTED: the EventBridge event it sends, and the
 * mark-failed step run from outside the machine (functions/handlers/execution-ended.ts on AWS, the
 * local runner's executionEnded locally).
 */
import { endedExecutionOf, failEndedExecution } from '#pipeline/execution-ended';
import { createHandler } from '#handlers/execution-ended';
import { jobObjectPrefix } from '#domain/jobs';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

const unit = (jobId: number, chargeNumber = 1) => ({ accountId: ACCOUNT, jobId, chargeNumber });

/** An "Execution Status Change" event as Step Functions sends it to EventBridge. */
const statusEvent = (status: string, input: unknown, extra: Record<string, unknown> = {}) => ({
  version: '0',
  source: 'aws.states',
  'detail-type': 'Step Functions Execution Status Change',
  detail: {
    executionArn: 'arn:aws:states:us-east-1:123456789012:execution:VideoJob:job-1',
    stateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:VideoJob',
    status,
    input: typeof input === 'string' ? input : JSON.stringify(input),
    inputDetails: { included: true },
    output: null,
    error: null,
    cause: null,
    ...extra,
  },
});

async function waitingPreview(w: ReturnType<typeof pipelineWorld>) {
  const job = await w.queuedJob({ mode: 'preview' });
  await w.jobs.update(ACCOUNT, job.id, { status: 'preview_ready', task_token: 'tok-1' });
  await w.blobs.putBuffer(`${jobObjectPrefix(ACCOUNT, job.id)}reaction.mp4`, Buffer.from('clip'), 'video/mp4');
  return job;
}

describe('an execution that ended without succeeding', () => {
  test('TIMED_OUT: the job fails with timeout, its reserved unit is released, its token and files are gone', async () => {
    const w = pipelineWorld();
    const job = await waitingPreview(w);
    await failEndedExecution(w.deps, { account_id: ACCOUNT, job_id: job.id, status: 'TIMED_OUT' });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', error: { code: 'timeout' }, task_token: null, resume_at: null });
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'released' });
    expect(await w.blobs.listKeys(jobObjectPrefix(ACCOUNT, job.id))).toEqual([]);
  });

  test('ABORTED: the job fails with internal_error and a message saying it was stopped', async () => {
    const w = pipelineWorld();
    const job = await waitingPreview(w);
    await failEndedExecution(w.deps, { account_id: ACCOUNT, job_id: job.id, status: 'ABORTED' });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', error: { code: 'internal_error', message: expect.stringMatching(/stopped/) } });
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'released' });
  });

  test('FAILED past MarkFailed: the Cause is read as MarkFailed reads it', async () => {
    const w = pipelineWorld();
    const job = await waitingPreview(w);
    const cause = JSON.stringify({ code: 'render_failed', message: 'no frames' });
    await failEndedExecution(w.deps, { account_id: ACCOUNT, job_id: job.id, status: 'FAILED', error: 'Job.Failed', cause });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', error: { code: 'render_failed', message: 'no frames' } });
  });

  test('a job already final is left as it is (the usual FAILED after MarkFailed, or a repeat)', async () => {
    const w = pipelineWorld();
    const job = await waitingPreview(w);
    await failEndedExecution(w.deps, { account_id: ACCOUNT, job_id: job.id, status: 'TIMED_OUT' });
    const failed = await w.jobs.get(ACCOUNT, job.id);
    w.advance(60_000);
    await failEndedExecution(w.deps, { account_id: ACCOUNT, job_id: job.id, status: 'ABORTED' });
    expect(await w.jobs.get(ACCOUNT, job.id)).toEqual(failed);
  });
});

describe('the EventBridge event', () => {
  test('names the job from the execution input, with the Error and Cause of a FAILED one', () => {
    const input = { account_id: 7, job_id: 12, job: { mode: 'preview', method: 'prompt' } };
    expect(endedExecutionOf(statusEvent('TIMED_OUT', input))).toEqual({ account_id: 7, job_id: 12, status: 'TIMED_OUT' });
    expect(endedExecutionOf(statusEvent('FAILED', input, { error: 'JobFailureNotRecorded', cause: 'x' }))).toEqual({
      account_id: 7,
      job_id: 12,
      status: 'FAILED',
      error: 'JobFailureNotRecorded',
      cause: 'x',
    });
  });

  test('an event of another status, or with no job in its input, names nothing', () => {
    expect(endedExecutionOf(statusEvent('SUCCEEDED', { account_id: 7, job_id: 12 }))).toBeUndefined();
    expect(endedExecutionOf(statusEvent('FAILED', 'not json'))).toBeUndefined();
    expect(endedExecutionOf(statusEvent('FAILED', { job_id: 12 }))).toBeUndefined();
    expect(endedExecutionOf({ detail: 'x' })).toBeUndefined();
  });

  test('the handler fails the job it names, and drops an event that names none', async () => {
    const w = pipelineWorld();
    const job = await waitingPreview(w);
    const handle = createHandler(() => w.deps);
    expect(await handle(statusEvent('TIMED_OUT', { account_id: ACCOUNT, job_id: job.id }))).toEqual({ failed: true });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    expect(await handle(statusEvent('TIMED_OUT', 'garbage'))).toEqual({ failed: false });
  });
});
