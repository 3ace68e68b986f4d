/** The sweeper over the in-memory job store and ledger (they keep the DynamoDB adapters' rules). */
import { SWEEP_GRACE_MS, sweepStrandedWork } from '#pipeline/sweeper';
import type { JobRunner } from '#ports/job-runner';
import type { JobExecutionInput } from '#pipeline/steps';
import { ACCOUNT, ALLOWANCE, pipelineWorld } from '#test-support/pipeline';

const OLDER_THAN_ANY_JOB = SWEEP_GRACE_MS + 60_000;
const unit = (jobId: number) => ({ accountId: ACCOUNT, jobId, chargeNumber: 1 });

function recordingRunner(): JobRunner & { started: JobExecutionInput[] } {
  const started: JobExecutionInput[] = [];
  return { started, start: async (input) => void started.push(input), sendDecision: async () => undefined };
}

/** A unit reserved with no job: the request died between the reservation and the job, or the job was removed by hand. */
function orphanUnit(w: ReturnType<typeof pipelineWorld>, jobId: number) {
  w.ledger.reserve({ ref: unit(jobId), period: w.period(), limit: ALLOWANCE }, w.deps.now());
}

describe('the sweeper', () => {
  test('releases a unit whose job never came to exist, once it is older than any job can run', async () => {
    const w = pipelineWorld();
    orphanUnit(w, 900);
    w.advance(OLDER_THAN_ANY_JOB);
    expect(await sweepStrandedWork(w.deps)).toEqual({ released: 1, started: 0, redelivered: 0, failed_decisions: 0, left_for_next_sweep: [] });
    expect(await w.ledger.entry(unit(900))).toMatchObject({ state: 'released' });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 0, reserved: 0 });
  });

  test('releases a unit whose job failed without settling it', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await w.jobs.update(ACCOUNT, job.id, { status: 'failed', stage: 'failed' });
    w.advance(OLDER_THAN_ANY_JOB);
    await sweepStrandedWork(w.deps);
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'released' });
  });

  test('leaves the units of jobs still in flight to the pipeline', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    await w.jobs.update(ACCOUNT, job.id, { status: 'processing', stage: 'generating_reaction' });
    w.advance(OLDER_THAN_ANY_JOB);
    await sweepStrandedWork(w.deps);
    expect(await w.ledger.entry(unit(job.id))).toMatchObject({ state: 'reserved' });
  });

  test('leaves recent units alone, even without a job (the request may still be writing it)', async () => {
    const w = pipelineWorld();
    orphanUnit(w, 901);
    w.advance(60_000);
    expect(await sweepStrandedWork(w.deps)).toEqual({ released: 0, started: 0, redelivered: 0, failed_decisions: 0, left_for_next_sweep: [] });
    expect(await w.ledger.entry(unit(901))).toMatchObject({ state: 'reserved' });
  });

  test('a second sweep changes nothing', async () => {
    const w = pipelineWorld();
    orphanUnit(w, 902);
    w.advance(OLDER_THAN_ANY_JOB);
    await sweepStrandedWork(w.deps);
    expect((await sweepStrandedWork(w.deps)).released).toBe(0);
  });

  test('with a runner, starts a job that was written but never started, and only an old one', async () => {
    const w = pipelineWorld();
    const old = await w.queuedJob();
    w.advance(OLDER_THAN_ANY_JOB);
    const recent = await w.queuedJob();
    w.advance(60_000);
    const runner = recordingRunner();
    expect(await sweepStrandedWork(w.deps, { runner })).toEqual({ released: 0, started: 1, redelivered: 0, failed_decisions: 0, left_for_next_sweep: [] });
    expect(runner.started).toEqual([{ account_id: ACCOUNT, job_id: old.id, job: { mode: 'auto', method: 'prompt' } }]);
    expect(runner.started.map((input) => input.job_id)).not.toContain(recent.id);
  });

  test('without a runner (the local stack resumes every active job itself) no job is started', async () => {
    const w = pipelineWorld();
    await w.queuedJob();
    w.advance(OLDER_THAN_ANY_JOB);
    expect(await sweepStrandedWork(w.deps)).toEqual({ released: 0, started: 0, redelivered: 0, failed_decisions: 0, left_for_next_sweep: [] });
  });

  test('reads none of the previews waiting for a decision, however many and however long they wait', async () => {
    const w = pipelineWorld();
    for (let i = 0; i < 5; i++) {
      const job = await w.queuedJob();
      await w.jobs.update(ACCOUNT, job.id, { status: 'processing', stage: 'preparing', handed_decision: null });
      await w.jobs.update(ACCOUNT, job.id, { status: 'preview_ready', stage: 'awaiting_approval', task_token: `t${i}` });
    }
    w.advance(29 * 24 * 3600_000);
    const reads = jest.spyOn(w.jobs, 'get');
    expect(await sweepStrandedWork(w.deps, { runner: recordingRunner() })).toMatchObject({ started: 0, redelivered: 0, left_for_next_sweep: [] });
    // The units of waiting previews are checked (their job could have ended unsettled); the jobs themselves are not read as candidates.
    expect(reads.mock.calls.length).toBe(5);
  });

  test('out of time, stops between two jobs and leaves the rest to the next sweep', async () => {
    const w = pipelineWorld();
    for (let i = 0; i < 3; i++) await w.queuedJob();
    w.advance(OLDER_THAN_ANY_JOB);
    const runner = recordingRunner();
    // Time for the three units (all of jobs in flight) and one job.
    let budget = 4;
    const first = await sweepStrandedWork(w.deps, { runner, timeLeftMs: () => (budget-- > 0 ? 1 : 0) });
    expect(first).toMatchObject({ started: 1, left_for_next_sweep: ['jobs'] });
    // The recording runner moves no job, so the one started first is started again: starting is idempotent per job.
    expect(await sweepStrandedWork(w.deps, { runner })).toMatchObject({ started: 3, left_for_next_sweep: [] });
  });
});
