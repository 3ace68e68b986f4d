/**
 * The one preview deadline: ChargePreview fixes it at the first preview and answers the wait left to
 * it (AwaitDecision's TimeoutSecondsPath); a regenerated round waits only what is left, and
 * await_decision shows that same deadline.
 */
import { awaitDecision } from '#pipeline/tasks/await-decision';
import { chargePreview } from '#pipeline/tasks/charge-preview';
import { DECISION_WAIT_MIN_S, STATE_OF_STEP } from '#pipeline/steps';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

const DAY_MS = 24 * 3600_000;

async function previewJob(w: ReturnType<typeof pipelineWorld>) {
  const job = await w.queuedJob({ mode: 'preview' });
  await w.jobs.update(ACCOUNT, job.id, { status: 'processing' });
  return job;
}

/** What regenerate writes to start the next round (functions/use-cases/regenerate-video-job.ts), with its unit. */
async function regenerate(w: ReturnType<typeof pipelineWorld>, jobId: number, round: number) {
  await w.jobs.startRound(
    ACCOUNT,
    jobId,
    { status: 'queued', stage: 'queued', regenerations: round, reaction: null, preview: null, preview_expires_at: null, task_token: null, resume_at: STATE_OF_STEP.generate_reaction },
    { statusIn: ['preview_ready'] },
    { ref: { accountId: ACCOUNT, jobId, chargeNumber: round + 1 }, period: w.period(), limit: 10 },
    w.deps.now(),
  );
  await w.jobs.update(ACCOUNT, jobId, { status: 'processing' });
}

describe('the preview deadline', () => {
  test('the first preview fixes it: the configured wait from now, answered in whole seconds', async () => {
    const w = pipelineWorld();
    const job = await previewJob(w);
    expect(await chargePreview(w.payload(job, 'charge_preview'), w.deps)).toEqual({ decision_wait_s: 30 * 24 * 3600 });
    expect((await w.jobs.get(ACCOUNT, job.id))?.preview_deadline).toBe(new Date(w.deps.now().getTime() + 30 * DAY_MS).toISOString());
  });

  test('regenerations do not move it: each later round waits only what is left, and shows the same deadline', async () => {
    const w = pipelineWorld();
    const job = await previewJob(w);
    await chargePreview(w.payload(job, 'charge_preview'), w.deps);
    const first = await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-1' }), w.deps);

    w.advance(10 * DAY_MS);
    await regenerate(w, job.id, 1);
    expect(await chargePreview(w.payload(job, 'charge_preview'), w.deps)).toEqual({ decision_wait_s: 20 * 24 * 3600 });
    const second = await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-2' }), w.deps);
    expect(second).toEqual(first);
    expect((await w.jobs.get(ACCOUNT, job.id))?.preview_expires_at).toBe(first?.expires_at);
  });

  test('a round that reaches the wait past the deadline gets the shortest wait, then expires', async () => {
    const w = pipelineWorld();
    const job = await previewJob(w);
    await chargePreview(w.payload(job, 'charge_preview'), w.deps);
    await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-1' }), w.deps);
    w.advance(30 * DAY_MS - 1000);
    await regenerate(w, job.id, 1);
    w.advance(15 * 60_000);
    expect(await chargePreview(w.payload(job, 'charge_preview'), w.deps)).toEqual({ decision_wait_s: DECISION_WAIT_MIN_S });
  });

  test('a runtime with a shorter configured wait fixes a nearer deadline', async () => {
    const w = pipelineWorld({ previewWaitS: 3 });
    const job = await previewJob(w);
    expect(await chargePreview(w.payload(job, 'charge_preview'), w.deps)).toEqual({ decision_wait_s: DECISION_WAIT_MIN_S });
    expect((await w.jobs.get(ACCOUNT, job.id))?.preview_deadline).toBe(new Date(w.deps.now().getTime() + 3000).toISOString());
  });

  test('a job that ended meanwhile is answered the shortest wait, and nothing is written', async () => {
    const w = pipelineWorld();
    const job = await previewJob(w);
    await w.jobs.update(ACCOUNT, job.id, { status: 'failed' });
    expect(await chargePreview(w.payload(job, 'charge_preview'), w.deps)).toEqual({ decision_wait_s: DECISION_WAIT_MIN_S });
    expect((await w.jobs.get(ACCOUNT, job.id))?.preview_deadline).toBeUndefined();
  });
});
