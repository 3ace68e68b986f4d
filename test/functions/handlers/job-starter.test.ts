/**
 * The job starter: the table's stream hands it the keys of written items, and it starts every job
 * that was written and not started (its API process died in between). Starting is idempotent per job,
 * so a job the API did start costs one read and a no-op start; anything that is not a job's insert is
 * not looked at.
 */
import { createHandler } from '#handlers/job-starter';
import type { JobRunner } from '#ports/job-runner';
import type { JobExecutionInput } from '#pipeline/steps';
import { keys } from '#adapters/dynamodb/keys';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

function recordingRunner(fail?: (input: JobExecutionInput) => boolean): JobRunner & { started: JobExecutionInput[] } {
  const started: JobExecutionInput[] = [];
  return {
    started,
    start: async (input) => {
      if (fail?.(input)) throw new Error('Step Functions throttled the start');
      started.push(input);
    },
    sendDecision: async () => undefined,
  };
}

/** A KEYS_ONLY stream record, as DynamoDB Streams sends it. */
const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', key: { pk: string; sk: string }, sequence: string) => ({
  eventID: `event-${sequence}`,
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: { Keys: { pk: { S: key.pk }, sk: { S: key.sk } }, SequenceNumber: sequence, SizeBytes: 60, StreamViewType: 'KEYS_ONLY' },
});

function starterOver(w: ReturnType<typeof pipelineWorld>, runner: JobRunner) {
  return createHandler(() => ({ ...w.deps, jobRunner: runner }));
}

describe('the job starter (on the table stream)', () => {
  test('starts a job that was written and not started, with the input its execution needs', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    const runner = recordingRunner();
    expect(await starterOver(w, runner)({ Records: [record('INSERT', keys.job(ACCOUNT, job.id), '100')] })).toEqual({ batchItemFailures: [] });
    expect(runner.started).toEqual([{ account_id: ACCOUNT, job_id: job.id, job: { mode: 'auto', method: 'prompt' } }]);
  });

  test('leaves a job a step of which already ran, and a job already final', async () => {
    const w = pipelineWorld();
    const running = await w.queuedJob();
    await w.jobs.update(ACCOUNT, running.id, { status: 'processing', stage: 'generating_reaction' });
    const failed = await w.queuedJob();
    await w.jobs.update(ACCOUNT, failed.id, { status: 'failed', stage: 'failed' });
    const runner = recordingRunner();
    await starterOver(w, runner)({ Records: [record('INSERT', keys.job(ACCOUNT, running.id), '1'), record('INSERT', keys.job(ACCOUNT, failed.id), '2')] });
    expect(runner.started).toEqual([]);
  });

  test('reads only job inserts: updates, removals, other items, unknown jobs and malformed records are passed over', async () => {
    const w = pipelineWorld();
    const job = await w.queuedJob();
    const runner = recordingRunner();
    const answer = await starterOver(w, runner)({
      Records: [
        record('MODIFY', keys.job(ACCOUNT, job.id), '1'),
        record('REMOVE', keys.job(ACCOUNT, job.id), '2'),
        record('INSERT', keys.product(ACCOUNT, 1), '3'),
        record('INSERT', keys.job(ACCOUNT, 999_999), '4'),
        record('INSERT', { pk: `ACCOUNT#${ACCOUNT}`, sk: 'JOB#not-a-number' }, '5'),
        record('INSERT', { pk: 'ACCOUNT#0x10', sk: keys.job(ACCOUNT, job.id).sk }, '6'),
        { eventName: 'INSERT', dynamodb: { Keys: { pk: { N: '1' } } } },
        null,
        'text',
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(runner.started).toEqual([]);
    for (const event of [undefined, null, {}, { Records: 'x' }, []]) expect(await starterOver(w, runner)(event)).toEqual({ batchItemFailures: [] });
  });

  test('a start that fails hands its record back to Lambda (which retries from it on), after starting those before it', async () => {
    const w = pipelineWorld();
    const first = await w.queuedJob();
    const second = await w.queuedJob();
    const third = await w.queuedJob();
    const runner = recordingRunner((input) => input.job_id === second.id);
    const answer = await starterOver(w, runner)({
      Records: [record('INSERT', keys.job(ACCOUNT, first.id), '10'), record('INSERT', keys.job(ACCOUNT, second.id), '11'), record('INSERT', keys.job(ACCOUNT, third.id), '12')],
    });
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '11' }] });
    expect(runner.started.map((input) => input.job_id)).toEqual([first.id]);
  });
});
