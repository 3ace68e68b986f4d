import { awaitDecision } from '#pipeline/tasks/await-decision';
import { STATE_OF_STEP } from '#pipeline/steps';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

describe('await_decision', () => {
  test('shows preview_ready, keeps the token, and answers the deadline', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob({ mode: 'preview' });
    await w.jobs.update(ACCOUNT, job.id, { status: 'processing' });
    const answer = await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-1' }), w.deps);
    const expected = new Date(w.deps.now().getTime() + 30 * 24 * 3600 * 1000).toISOString();
    expect(answer).toEqual({ expires_at: expected });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({
      status: 'preview_ready',
      stage: 'awaiting_approval',
      task_token: 'tok-1',
      preview_expires_at: expected,
      resume_at: STATE_OF_STEP.await_decision,
    });
  });

  test('re-entered with a new token (a local restart), it keeps the first deadline', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob({ mode: 'preview' });
    const first = await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-1' }), w.deps);
    w.advance(3600_000);
    const second = await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-2' }), w.deps);
    expect(second).toEqual(first);
    expect((await w.jobs.get(ACCOUNT, job.id))?.task_token).toBe('tok-2');
  });

  test('a runtime configured with a shorter wait gives a nearer deadline', async () => {
    const w = pipelineWorld({ previewWaitS: 3 });
    const job = await w.queuedJob({ mode: 'preview' });
    const answer = await awaitDecision(w.payload(job, 'await_decision', { task_token: 'tok-1' }), w.deps);
    expect(answer).toEqual({ expires_at: new Date(w.deps.now().getTime() + 3000).toISOString() });
  });

  test('without a token it is an internal error', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob({ mode: 'preview' });
    await expect(awaitDecision(w.payload(job, 'await_decision'), w.deps)).rejects.toMatchObject({ code: 'internal_error' });
  });
});
