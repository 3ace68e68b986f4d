import { TaskTokenInvalid } from '#ports/job-runner';
import { approvePreview } from '#use-cases/approve-preview';
import { takesOf } from '#domain/takes';
import { previewReadyJob, previewReadyJobWithTakes, videoJobFixture } from '#test-support/video-jobs';

describe('approvePreview', () => {
  test('moves the job to composing with the caption changes and hands the decision to its execution', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    const moved = await approvePreview(deps, { accountId, jobId: 1, changes: { hook_text: 'New hook', hook_position: 'bottom' } });
    expect(moved).toMatchObject({ status: 'processing', stage: 'composing', progress: 80, task_token: null, resume_at: 'Compose', hook_text: 'New hook', hook_position: 'bottom', hook_size: 'medium' });
    expect(runner.decisions).toEqual([{ token: 'token-1', decision: { action: 'approve' } }]);
  });

  test('the caption style and duration may be changed too; left out, they stay the job\'s', async () => {
    const { deps, accountId, jobs } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    expect(await approvePreview(deps, { accountId, jobId: 1, changes: { hook_style: 'bold_caps', hook_duration: 'full' } })).toMatchObject({ hook_style: 'bold_caps', hook_duration: 'full', hook_size: 'medium' });
    jobs.put(previewReadyJob(accountId, 2, { hook_style: 'highlight' }));
    expect(await approvePreview(deps, { accountId, jobId: 2, changes: { hook_text: 'Other' } })).toMatchObject({ hook_style: 'highlight', hook_text: 'Other' });
  });

  test('two approves racing: one hands the decision over, the other is 409', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    const outcomes = await Promise.allSettled([approvePreview(deps, { accountId, jobId: 1, changes: {} }), approvePreview(deps, { accountId, jobId: 1, changes: {} })]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
    expect(runner.decisions).toHaveLength(1);
  });

  test('a runner that cannot be reached: 503, and the job is back at preview_ready with its token', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJob(accountId, 1));
    runner.failDecision = new Error('states unreachable');
    await expect(approvePreview(deps, { accountId, jobId: 1, changes: { hook_text: 'x' } })).rejects.toMatchObject({
      code: 'upstream_unavailable',
      message: expect.stringContaining('back at preview_ready'),
    });
    expect(await jobs.get(accountId, 1)).toEqual(waiting);
  });

  test('the hand-over failed but the job moved on meanwhile: 503 that says to look, and the job is left as it is', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    runner.sendDecision = async () => {
      // The execution did resume and finished before the answer was lost.
      await jobs.update(accountId, 1, { status: 'done', stage: 'done' });
      throw new Error('answer lost');
    };
    await expect(approvePreview(deps, { accountId, jobId: 1, changes: {} })).rejects.toMatchObject({ message: expect.stringContaining('GET the job') });
    expect(await jobs.get(accountId, 1)).toMatchObject({ status: 'done' });
  });

  test('an expired wait is 409 and the job is left for the machine to fail', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    jobs.put(previewReadyJob(accountId, 1));
    runner.failDecision = new TaskTokenInvalid();
    await expect(approvePreview(deps, { accountId, jobId: 1, changes: {} })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('expired') });
    expect(await jobs.get(accountId, 1)).toMatchObject({ status: 'processing' });
  });

  test('without a take it finishes the newest, as before takes', async () => {
    const { deps, accountId, jobs } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJobWithTakes(accountId, 1, ['shocked', 'laughing']));
    expect(await approvePreview(deps, { accountId, jobId: 1, changes: {} })).toMatchObject({ reaction: waiting.reaction, preview: waiting.preview, prompt: 'laughing' });
  });

  test("naming an earlier take puts that take's clip, preview and inputs on the job in the write that wins, caption overrides on top", async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJobWithTakes(accountId, 1, ['shocked', 'laughing'], { hook_text: 'Wait' }));
    const [first] = takesOf(waiting);
    // The second round also changed the caption's look; the first take was previewed in its own.
    await jobs.update(accountId, 1, { hook_style: 'glow', sound: 'none' });
    const moved = await approvePreview(deps, { accountId, jobId: 1, changes: { take: 1, hook_position: 'bottom' } });
    expect(moved).toMatchObject({ status: 'processing', resume_at: 'Compose', reaction: first!.reaction, preview: first!.preview, prompt: 'shocked', hook_style: 'outline', sound: 'auto', hook_text: 'Wait', hook_position: 'bottom' });
    // The takes stay as they were; the decision handed over is the same approve.
    expect(moved.takes).toEqual(waiting.takes);
    expect(runner.decisions).toEqual([{ token: 'token-1', decision: { action: 'approve' } }]);
  });

  test('a take the job does not have is 400 naming take, and nothing moves', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJobWithTakes(accountId, 1, ['shocked', 'laughing']));
    await expect(approvePreview(deps, { accountId, jobId: 1, changes: { take: 3 } })).rejects.toMatchObject({ status: 400, code: 'bad_request', param: 'take', message: expect.stringContaining('1 to 2') });
    expect(await jobs.get(accountId, 1)).toEqual(waiting);
    expect(runner.decisions).toEqual([]);
  });

  test('two approves naming different takes: exactly one decision, and the job holds the take of the one that won', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJobWithTakes(accountId, 1, ['shocked', 'laughing']));
    const outcomes = await Promise.allSettled([1, 2].map((take) => approvePreview(deps, { accountId, jobId: 1, changes: { take } })));
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(won).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([expect.objectContaining({ reason: expect.objectContaining({ code: 'conflict' }) })]);
    expect(runner.decisions).toHaveLength(1);
    const winner = takesOf(waiting).find((take) => take.reaction.key === won[0]!.reaction?.key);
    expect((await jobs.get(accountId, 1))?.reaction).toEqual(winner?.reaction);
  });

  test('a runner that cannot be reached after an earlier take was chosen: the job is back showing its newest take', async () => {
    const { deps, accountId, jobs, runner } = await videoJobFixture();
    const waiting = jobs.put(previewReadyJobWithTakes(accountId, 1, ['shocked', 'laughing']));
    runner.failDecision = new Error('states unreachable');
    await expect(approvePreview(deps, { accountId, jobId: 1, changes: { take: 1 } })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(await jobs.get(accountId, 1)).toEqual(waiting);
  });

  test('an unknown job is 404; an auto job or one not at preview_ready is 409', async () => {
    const { deps, accountId, jobs } = await videoJobFixture();
    await expect(approvePreview(deps, { accountId, jobId: 9, changes: {} })).rejects.toMatchObject({ code: 'not_found' });
    jobs.put(previewReadyJob(accountId, 2, { mode: 'auto' }));
    await expect(approvePreview(deps, { accountId, jobId: 2, changes: {} })).rejects.toMatchObject({ code: 'conflict' });
    jobs.put(previewReadyJob(accountId, 3, { status: 'processing' }));
    await expect(approvePreview(deps, { accountId, jobId: 3, changes: {} })).rejects.toMatchObject({ code: 'conflict' });
  });
});
