/** Which jobs may be started by whoever notices them: written, queued at the first step, and (for the sweeper) old enough. */
import { startIfNeverStarted } from '#pipeline/start-written';
import type { JobRunner } from '#ports/job-runner';
import { STATE_OF_STEP, type JobExecutionInput } from '#pipeline/steps';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

function recordingRunner(): JobRunner & { started: JobExecutionInput[] } {
  const started: JobExecutionInput[] = [];
  return { started, start: async (input) => void started.push(input), sendDecision: async () => undefined };
}

describe('startIfNeverStarted', () => {
  test('starts a queued job no step of which ran', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    const runner = recordingRunner();
    expect(await startIfNeverStarted(w.deps, runner, { accountId: ACCOUNT, jobId: job.id })).toBe(true);
    expect(runner.started.map((input) => input.job_id)).toEqual([job.id]);
  });

  test('a job written after the cutoff is left (the request that wrote it may still be starting it)', async () => {
    const w = pipelineWorld();
    const cutoff = w.deps.now();
    w.advance(1000);
    const job = await w.queuedJob();
    const runner = recordingRunner();
    expect(await startIfNeverStarted(w.deps, runner, { accountId: ACCOUNT, jobId: job.id }, cutoff)).toBe(false);
    expect(runner.started).toEqual([]);
  });

  test('a job in flight, a final one, a regenerating preview or a missing one is not started', async () => {
    const w = pipelineWorld();
    const processing = await w.queuedJob();
    await w.jobs.update(ACCOUNT, processing.id, { status: 'processing', stage: 'composing' });
    const done = await w.queuedJob();
    await w.jobs.update(ACCOUNT, done.id, { status: 'done', stage: 'done' });
    // A regenerated preview is queued again, but its execution waits at the decision, not at the first step.
    const regenerating = await w.queuedJob();
    await w.jobs.update(ACCOUNT, regenerating.id, { resume_at: STATE_OF_STEP.generate_reaction });
    const runner = recordingRunner();
    for (const jobId of [processing.id, done.id, regenerating.id, 4242]) expect(await startIfNeverStarted(w.deps, runner, { accountId: ACCOUNT, jobId })).toBe(false);
    expect(runner.started).toEqual([]);
  });
});
