/**
 * A preview decision whose hand-over and undo both failed is not left waiting for the preview's
 * deadline: the job keeps the decision and its token until the resumed execution starts a step, and
 * the sweeper hands it over again (functions/pipeline/redeliver-decision.ts).
 */
import { TaskTokenInvalid } from '#ports/job-runner';
import { billingPeriodOf } from '#domain/billing-period';
import { enterStep } from '#pipeline/job-context';
import { DECISION_GIVE_UP_MS, HANDOVER_GRACE_MS, redeliverStuckDecision } from '#pipeline/redeliver-decision';
import { sweepStrandedWork } from '#pipeline/sweeper';
import { approvePreview } from '#use-cases/approve-preview';
import { regenerateVideoJob } from '#use-cases/regenerate-video-job';
import { previewReadyJob, videoJobFixture } from '#test-support/video-jobs';

const LATER = (ms: number) => new Date(Date.parse('2026-03-01T12:00:00Z') + ms);

/** The approve's hand-over fails, and so does putting the job back: the decision is recorded, not received. */
async function strandedApprove() {
  const fixture = await videoJobFixture();
  const { deps, accountId, jobs, runner } = fixture;
  jobs.put(previewReadyJob(accountId, 1));
  runner.failDecision = new Error('states unreachable');
  jest.spyOn(jobs, 'restore').mockRejectedValue(new Error('table unreachable'));
  await expect(approvePreview(deps, { accountId, jobId: 1, changes: {} })).rejects.toMatchObject({
    code: 'upstream_unavailable',
    message: expect.stringContaining('handed over again within minutes'),
  });
  runner.failDecision = undefined;
  return fixture;
}

describe('a preview decision that never reached its execution', () => {
  test('is kept on the job with its token while it is on its way', async () => {
    const { jobs, accountId } = await strandedApprove();
    expect(await jobs.get(accountId, 1)).toMatchObject({
      status: 'processing',
      stage: 'composing',
      task_token: null,
      handed_decision: { token: 'token-1', decision: { action: 'approve' }, at: expect.any(String) },
    });
  });

  test('the sweeper hands it over again once the grace has passed, and not before', async () => {
    const { deps, jobs, accountId, runner } = await strandedApprove();
    const job = (await jobs.get(accountId, 1))!;
    const recordedAt = Date.parse(job.handed_decision!.at);
    expect(await redeliverStuckDecision(deps, runner, job, new Date(recordedAt - 1))).toBe('none');
    expect(runner.decisions).toEqual([]);
    const report = await sweepStrandedWork({ ...deps, now: () => new Date(recordedAt + HANDOVER_GRACE_MS + 1) }, { runner });
    expect(report.redelivered).toBe(1);
    expect(runner.decisions).toEqual([{ token: 'token-1', decision: { action: 'approve' } }]);
  });

  test('once the resumed execution starts a step the record is clear, and a later sweep sends nothing', async () => {
    const { deps, jobs, accountId, runner } = await strandedApprove();
    await enterStep(deps, (await jobs.get(accountId, 1))!, 'compose', 'composing');
    expect((await jobs.get(accountId, 1))!.handed_decision).toBeNull();
    expect((await sweepStrandedWork({ ...deps, now: () => LATER(HANDOVER_GRACE_MS * 10) }, { runner })).redelivered).toBe(0);
    expect(runner.decisions).toEqual([]);
  });

  test('a token the runner no longer knows (used, or the preview expired) clears the record', async () => {
    const { deps, jobs, accountId, runner } = await strandedApprove();
    runner.failDecision = new TaskTokenInvalid();
    const job = (await jobs.get(accountId, 1))!;
    expect(await redeliverStuckDecision(deps, runner, job, LATER(HANDOVER_GRACE_MS * 10))).toBe('cleared');
    expect((await jobs.get(accountId, 1))!.handed_decision).toBeNull();
  });

  test('a runner still unreachable leaves the record for the next sweep, and the sweep goes on', async () => {
    const { deps, jobs, accountId, runner } = await strandedApprove();
    runner.failDecision = new Error('states still unreachable');
    expect((await sweepStrandedWork({ ...deps, now: () => LATER(HANDOVER_GRACE_MS * 10) }, { runner })).redelivered).toBe(0);
    expect((await jobs.get(accountId, 1))!.handed_decision).toMatchObject({ token: 'token-1' });
  });

  test('one that still cannot be handed over 30 minutes after it was recorded fails the job and releases the unit its round reserved', async () => {
    const { deps, accountId, jobs, ledger, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    // The first round's unit, charged when its preview was ready.
    const round1 = { accountId, jobId: 1, chargeNumber: 1 };
    ledger.reserve({ ref: round1, period: billingPeriodOf(deps.now()).id, limit: 10 }, deps.now());
    await ledger.charge(round1);
    runner.failDecision = new Error('states unreachable');
    jest.spyOn(jobs, 'restore').mockRejectedValue(new Error('table unreachable'));
    await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: {} })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const recorded = (await jobs.get(accountId, 1))!;
    const recordedAt = Date.parse(recorded.handed_decision!.at);
    const round2 = { accountId, jobId: 1, chargeNumber: 2 };
    expect(await ledger.entry(round2)).toMatchObject({ state: 'reserved' });

    // Before the limit an unreachable runner is only tried again at the next sweep.
    const early = await sweepStrandedWork({ ...deps, now: () => new Date(recordedAt + DECISION_GIVE_UP_MS - 1) }, { runner });
    expect(early).toMatchObject({ redelivered: 0, failed_decisions: 0 });
    expect((await jobs.get(accountId, 1))!.status).toBe(recorded.status);

    const late = await sweepStrandedWork({ ...deps, now: () => new Date(recordedAt + DECISION_GIVE_UP_MS) }, { runner });
    expect(late).toMatchObject({ redelivered: 0, failed_decisions: 1 });
    expect(await jobs.get(accountId, 1)).toMatchObject({
      status: 'failed',
      stage: 'failed',
      error: { code: 'internal_error', message: expect.stringContaining('could not reach the video job for 30 minutes') },
      charged_units: 1,
    });
    expect(await ledger.entry(round2)).toMatchObject({ state: 'released' });
    expect(await ledger.entry(round1)).toMatchObject({ state: 'charged' });
    // The execution, whenever it wakes, finds the job ended; a later sweep has nothing to do.
    expect(await sweepStrandedWork({ ...deps, now: () => new Date(recordedAt + 2 * DECISION_GIVE_UP_MS) }, { runner })).toMatchObject({ failed_decisions: 0 });
  });

  test('a regenerate records its round the same way', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    runner.failDecision = new Error('states unreachable');
    jest.spyOn(jobs, 'restore').mockRejectedValue(new Error('table unreachable'));
    await expect(regenerateVideoJob(deps, { accountId, jobId: 1, changes: {} })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect((await jobs.get(accountId, 1))!.handed_decision).toMatchObject({ token: 'token-1', decision: { action: 'regenerate', regenerations: 1 } });
  });
});
