import { getEntry, periodUsage, reserveWith, type ChargeRef } from '#adapters/dynamodb/allowance-ledger';
import { newJobItems, updateJob, type StoredJob } from '#adapters/dynamodb/jobs';
import { SWEEP_GRACE_MS, sweepStrandedWork } from '#pipeline/sweeper';
import type { JobRunner } from '#ports/job-runner';
import type { JobExecutionInput } from '#pipeline/steps';
import { startTestTable } from '#test-support/dynamodb';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table?.stop());

const PERIOD = '2026-11';
const NOW = new Date('2026-11-25T12:00:00Z');
const LONG_AGO = new Date(NOW.getTime() - SWEEP_GRACE_MS - 60_000);
const JUST_NOW = new Date(NOW.getTime() - 60_000);
let nextAccount = 5000;

/** A job as POST /videos writes it, with only what the sweeper reads filled in. */
const job = (accountId: number, id: number, at: Date) =>
  ({
    id,
    account_id: accountId,
    status: 'queued',
    method: 'prompt',
    mode: 'auto',
    regenerations: 0,
    created_at: at.toISOString(),
    resume_at: 'Start',
  }) as StoredJob;

/** A unit reserved at `at`, with its job written in the same transaction unless `withJob` is false. */
async function reservedUnit(at: Date, { withJob = true } = {}): Promise<ChargeRef> {
  const accountId = nextAccount++;
  const ref = { accountId, jobId: 1, chargeNumber: 1 };
  await reserveWith({ ref, period: PERIOD, limit: 10 }, withJob ? newJobItems(job(accountId, 1, at)) : [], at);
  return ref;
}

function recordingRunner(): JobRunner & { started: JobExecutionInput[] } {
  const started: JobExecutionInput[] = [];
  return { started, start: async (input) => void started.push(input), sendDecision: async () => undefined };
}

describe('the sweeper', () => {
  test('releases a unit whose job never came to exist, once it is older than any job can run', async () => {
    const ref = await reservedUnit(LONG_AGO, { withJob: false });
    expect((await sweepStrandedWork({ now: NOW })).released).toBeGreaterThanOrEqual(1);
    expect(await getEntry(ref)).toMatchObject({ state: 'released' });
    expect(await periodUsage(ref.accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('releases a unit whose job failed without settling it', async () => {
    const ref = await reservedUnit(LONG_AGO);
    await updateJob(ref.accountId, ref.jobId, { status: 'failed', stage: 'failed' });
    await sweepStrandedWork({ now: NOW });
    expect(await getEntry(ref)).toMatchObject({ state: 'released' });
  });

  test('leaves the units of jobs still in flight to the pipeline', async () => {
    const ref = await reservedUnit(LONG_AGO);
    await updateJob(ref.accountId, ref.jobId, { status: 'processing', stage: 'generating_reaction' });
    await sweepStrandedWork({ now: NOW });
    expect(await getEntry(ref)).toMatchObject({ state: 'reserved' });
  });

  test('leaves recent units alone, even without a job (the request may still be writing it)', async () => {
    const ref = await reservedUnit(JUST_NOW, { withJob: false });
    await sweepStrandedWork({ now: NOW });
    expect(await getEntry(ref)).toMatchObject({ state: 'reserved' });
  });

  test('a second sweep changes nothing', async () => {
    await reservedUnit(LONG_AGO, { withJob: false });
    await sweepStrandedWork({ now: NOW });
    expect((await sweepStrandedWork({ now: NOW })).released).toBe(0);
  });

  test('starts a job that was written but never started, and only an old one', async () => {
    const old = await reservedUnit(LONG_AGO);
    const recent = await reservedUnit(JUST_NOW);
    const runner = recordingRunner();
    await sweepStrandedWork({ now: NOW, runner });
    const started = runner.started.map((input) => input.account_id);
    expect(started).toContain(old.accountId);
    expect(started).not.toContain(recent.accountId);
    expect(runner.started.find((input) => input.account_id === old.accountId)).toEqual({
      account_id: old.accountId,
      job_id: 1,
      job: { mode: 'auto', method: 'prompt' },
    });
  });
});
