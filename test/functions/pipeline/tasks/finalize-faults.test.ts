/**
 * Finalize under faults: every call it makes to the job store, the ledger and the blob store fails in
 * turn, once before the call takes effect and once after (a write that committed but whose answer was
 * lost). The state machine then retries Finalize or hands the job to MarkFailed; either way a job that
 * ends failed has no unit charged, and one that ends done has exactly one.
 */
import { finalize } from '#pipeline/tasks/finalize';
import { markFailed } from '#pipeline/tasks/mark-failed';
import { jobObjectPrefix } from '#domain/jobs';
import type { Ports } from '#ports/ports';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

const OUTPUT = { video_id: 5, key: 'v.mp4', poster_key: 'v.jpg', duration_s: 9, size_bytes: 1234 };
const FAILURE = { Error: 'Lambda.Unknown', Cause: 'the function failed' };
const WATCHED = ['jobs', 'ledger', 'blobs'] as const;

type Timing = 'before' | 'after';

class InjectedFault extends Error {}

/**
 * `deps` whose `at`-th call (counted across the watched ports' methods) throws, before or after the
 * real call; `calls()` says how many calls Finalize made.
 */
function faulty(deps: Ports, at: number, timing: Timing) {
  let count = 0;
  const wrap = <T extends object>(port: T): T =>
    new Proxy(port, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          count++;
          if (count === at && timing === 'before') throw new InjectedFault(`fault before call ${at} (${String(property)})`);
          const result = await value.apply(target, args);
          if (count === at && timing === 'after') throw new InjectedFault(`fault after call ${at} (${String(property)})`);
          return result;
        };
      },
    });
  const watched = Object.fromEntries(WATCHED.map((name) => [name, wrap(deps[name])]));
  return { deps: { ...deps, ...watched } as Ports, calls: () => count };
}

async function composedAutoJob(w: ReturnType<typeof pipelineWorld>) {
  const job = await w.queuedJob({ mode: 'auto' });
  await w.jobs.update(ACCOUNT, job.id, { status: 'processing', stage: 'composing', output: OUTPUT });
  await w.blobs.putBuffer(`${jobObjectPrefix(ACCOUNT, job.id)}reaction.mp4`, Buffer.from('clip'), 'video/mp4');
  return job;
}

/** How many calls a clean Finalize makes: each one is a place a fault is injected. */
async function callsOfACleanRun(): Promise<number> {
  const w = pipelineWorld();
  const job = await composedAutoJob(w);
  const run = faulty(w.deps, 0, 'before');
  await finalize(w.payload(job, 'finalize'), run.deps);
  return run.calls();
}

/** The job as it ended, and the account's units, with the rule every ending must keep. */
async function expectPaidOnlyIfDone(w: ReturnType<typeof pipelineWorld>, jobId: number) {
  const job = (await w.jobs.get(ACCOUNT, jobId))!;
  const usage = await w.ledger.periodUsage(ACCOUNT, w.period());
  expect(['done', 'failed']).toContain(job.status);
  expect({ status: job.status, charged_units: job.charged_units, used: usage.used, reserved: usage.reserved }).toEqual(
    job.status === 'done' ? { status: 'done', charged_units: 1, used: 1, reserved: 0 } : { status: 'failed', charged_units: 0, used: 0, reserved: 0 },
  );
  const videos = await w.videos.list(ACCOUNT, 1, 10);
  expect(videos.total).toBe(job.status === 'done' ? 1 : 0);
  return job.status;
}

describe('finalize with a fault at each of its calls', () => {
  let calls: number;
  beforeAll(async () => {
    calls = await callsOfACleanRun();
  });

  test('makes several calls (the cases below cover each)', () => {
    expect(calls).toBeGreaterThanOrEqual(5);
  });

  test.each(['before', 'after'] as const)('a fault %s any call, then MarkFailed: failed with nothing charged, or done and charged once', async (timing) => {
    const endings = new Set<string>();
    for (let at = 1; at <= calls; at++) {
      const w = pipelineWorld();
      const job = await composedAutoJob(w);
      await expect(finalize(w.payload(job, 'finalize'), faulty(w.deps, at, timing).deps)).rejects.toBeInstanceOf(InjectedFault);
      await markFailed({ ...w.payload(job, 'mark_failed'), failure: FAILURE }, w.deps);
      endings.add(await expectPaidOnlyIfDone(w, job.id));
    }
    // Faults before the finishing write fail the job; MarkFailed after a later one finds it already done.
    expect([...endings].sort()).toEqual(['done', 'failed']);
  });

  test.each(['before', 'after'] as const)('a fault %s any call, then Finalize retried: done, charged once', async (timing) => {
    for (let at = 1; at <= calls; at++) {
      const w = pipelineWorld();
      const job = await composedAutoJob(w);
      await expect(finalize(w.payload(job, 'finalize'), faulty(w.deps, at, timing).deps)).rejects.toBeInstanceOf(InjectedFault);
      await finalize(w.payload(job, 'finalize'), w.deps);
      expect(await expectPaidOnlyIfDone(w, job.id)).toBe('done');
    }
  });
});
