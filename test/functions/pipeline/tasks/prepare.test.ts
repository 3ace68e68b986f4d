import { prepare } from '#pipeline/tasks/prepare';
import { PipelineError } from '#pipeline/errors';
import { STATE_OF_STEP } from '#pipeline/steps';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

describe('prepare', () => {
  test('moves a queued job to processing at Start, once its inputs exist', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await prepare(w.payload(job, 'prepare'), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'processing', stage: 'preparing', resume_at: STATE_OF_STEP.prepare });
  });

  test('a reuse job takes the saved clip as its reaction', async () => {
    const w = pipelineWorld();
    const saved = await w.savedReaction({ clip_key: 'saved.mp4', duration_s: 4, emotion: 'shocked' });
    const job = await w.queuedJob({ method: 'reuse', reactionId: saved.id, prompt: null });
    await prepare(w.payload(job, 'prepare'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.reaction).toEqual({ key: 'saved.mp4', duration_s: 4, emotion: 'shocked', engine: 'saved', seed: 0, face_box: null });
  });

  test('a reuse job knows where the saved clip’s face is, so its caption keeps clear of it', async () => {
    const w = pipelineWorld();
    const face = { x: 380, y: 650, width: 320, height: 300 };
    const saved = await w.savedReaction({ face_box: face });
    const job = await w.queuedJob({ method: 'reuse', reactionId: saved.id, prompt: null, hookText: 'Wait' });
    await prepare(w.payload(job, 'prepare'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.reaction?.face_box).toEqual(face);
  });

  test('a product deleted before the job started fails it with input_deleted', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob({ productId: 99 });
    await expect(prepare(w.payload(job, 'prepare'), w.deps)).rejects.toMatchObject({ code: 'input_deleted', name: 'Job.Failed' });
    expect((await w.jobs.get(ACCOUNT, job.id))?.status).toBe('queued');
  });

  test('a job that already ended is left alone (a late retry)', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await w.jobs.update(ACCOUNT, job.id, { status: 'failed', stage: 'failed' });
    await prepare(w.payload(job, 'prepare'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.status).toBe('failed');
  });

  test('a job that does not exist is an internal error', async () => {
    const w = pipelineWorld();
    await expect(prepare(w.payload({ account_id: ACCOUNT, id: 404 }, 'prepare'), w.deps)).rejects.toBeInstanceOf(PipelineError);
  });
});
