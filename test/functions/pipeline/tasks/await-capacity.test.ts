import { awaitCapacity } from '#pipeline/tasks/await-capacity';
import { markFailed } from '#pipeline/tasks/mark-failed';
import { prepare } from '#pipeline/tasks/prepare';
import { jobErrorOf } from '#pipeline/errors';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

const throttle = { Error: 'Lambda.TooManyRequestsException', Cause: 'Rate Exceeded.' };
const half = () => 0.5;

describe('AwaitCapacity (a render Task refused for capacity)', () => {
  test('shows the job waiting_for_capacity, keeps its progress, and answers the Task to go back to with a wait that doubles', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await prepare(w.payload(job, 'prepare'), w.deps);
    const first = await awaitCapacity(w.payload(job, 'await_capacity', { throttled: { GenerateReaction: throttle } }), w.deps, half);
    expect(first).toEqual({ wait_s: 4, resume: 'GenerateReaction' });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'processing', stage: 'waiting_for_capacity', progress: 5, resume_at: 'GenerateReaction' });
    // What the last turn wrote under $.capacity comes back with the next refusal, beside it.
    const waits = [first.wait_s];
    for (let turn = 0; turn < 6; turn++) {
      waits.push((await awaitCapacity(w.payload(job, 'await_capacity', { throttled: { ...first, GenerateReaction: throttle } }), w.deps, half)).wait_s);
    }
    expect(waits).toEqual([4, 8, 15, 30, 60, 90, 90]);
  });

  test('a step that starts ends the wait: the next refusal starts a new hour', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await awaitCapacity(w.payload(job, 'await_capacity', { throttled: { GenerateReaction: throttle } }), w.deps, half);
    w.advance(50 * 60_000);
    await prepare(w.payload(job, 'prepare'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.capacity_wait).toBeNull();
    w.advance(50 * 60_000);
    await expect(awaitCapacity(w.payload(job, 'await_capacity', { throttled: { Compose: throttle } }), w.deps, half)).resolves.toEqual({ wait_s: 4, resume: 'Compose' });
  });

  test('after an hour of refusals the job fails with capacity_unavailable, and MarkFailed gives its unit back', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await prepare(w.payload(job, 'prepare'), w.deps);
    await awaitCapacity(w.payload(job, 'await_capacity', { throttled: { GenerateReaction: throttle } }), w.deps, half);
    w.advance(59 * 60_000);
    await awaitCapacity(w.payload(job, 'await_capacity', { throttled: { GenerateReaction: throttle } }), w.deps, half);
    w.advance(60_000);
    const refused = awaitCapacity(w.payload(job, 'await_capacity', { throttled: { GenerateReaction: throttle } }), w.deps, half);
    await expect(refused).rejects.toMatchObject({ name: 'Job.Failed', code: 'capacity_unavailable' });
    const error = (await refused.catch((e: unknown) => e)) as Error;
    await markFailed(w.payload(job, 'mark_failed', { failure: { Error: error.name, Cause: error.message } }), w.deps);
    const failed = await w.jobs.get(ACCOUNT, job.id);
    expect(failed).toMatchObject({ status: 'failed', charged_units: 0, error: { code: 'capacity_unavailable' } });
    expect(jobErrorOf({ Error: error.name, Cause: error.message }).code).toBe('capacity_unavailable');
    expect(await w.ledger.entry({ accountId: ACCOUNT, jobId: job.id, chargeNumber: 1 })).toMatchObject({ state: 'released' });
  });

  test('a job that ended meanwhile is left as it is, and the machine goes back to the Task, which sees that', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await w.jobs.update(ACCOUNT, job.id, { status: 'failed', stage: 'failed' });
    await expect(awaitCapacity(w.payload(job, 'await_capacity', { throttled: { RenderPreview: throttle } }), w.deps, half)).resolves.toEqual({ wait_s: 1, resume: 'RenderPreview' });
    expect((await w.jobs.get(ACCOUNT, job.id))?.stage).toBe('failed');
  });

  test('anything but one refused render Task is an internal error, not a guess', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    for (const throttled of [undefined, {}, { Finalize: throttle }, { GenerateReaction: throttle, Compose: throttle }]) {
      await expect(awaitCapacity(w.payload(job, 'await_capacity', { throttled }), w.deps, half)).rejects.toMatchObject({ code: 'internal_error' });
    }
  });
});
