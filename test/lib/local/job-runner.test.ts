/**
 * The local job runner drives the real ASL file (statemachines/video-job.asl.json) with fake pipeline
 * steps: the order of the steps, task tokens, Retry/Catch, the preview deadline, resume, stop, and the
 * render concurrency.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_TIMER_MS, deadlineTimer } from '#local/deadline-timer';
import { eventually } from '#test-support/clock';
import {
  INTERRUPTED_FAILURE,
  createLocalJobRunner,
  type LocalJobRunner,
  type LocalJobRunnerOptions,
  type LocalJobStore,
} from '#local/job-runner';
import { TaskTokenInvalid } from '#ports/job-runner';
import { JOB_STATE_MACHINE_FILE, type JobExecutionInput, type StepPayload } from '#pipeline/steps';
const { max, random } = Math;

const ROOT = resolve(__dirname, '..', '..', '..');
const DAY_S = 24 * 3600;

const auto = (job_id: number, method: JobExecutionInput['job']['method'] = 'prompt'): JobExecutionInput => ({
  account_id: 1,
  job_id,
  job: { mode: 'auto', method },
});
const preview = (job_id: number): JobExecutionInput => ({ account_id: 1, job_id, job: { mode: 'preview', method: 'prompt' } });

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


/** A runner over fake steps; `behave` overrides a step's answer (return undefined for the default). */
function harness(
  behave: (payload: StepPayload, attempt: number, signal: AbortSignal) => unknown = () => undefined,
  options: Partial<LocalJobRunnerOptions> = {},
) {
  const calls: StepPayload[] = [];
  const contexts: { signal: AbortSignal; only: string }[] = [];
  const lines: string[] = [];
  const attempts = new Map<string, number>();
  const runner = createLocalJobRunner({
    retryIntervalOverrides: 0,
    log: (line) => lines.push(line),
    ...options,
    async runStep(payload, context) {
      calls.push(payload);
      contexts.push(context);
      const key = `${payload.job_id}/${payload.step}`;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      const answer = await behave(payload, attempt, context.signal);
      if (answer !== undefined) return answer;
      if (payload.step === 'charge_preview') return { decision_wait_s: 3600 };
      if (payload.step === 'generate_reaction') return { awaiting_provider: false };
      return payload.step === 'await_decision' ? { expires_at: inAnHour() } : { ok: true };
    },
  });
  runners.push(runner);
  return {
    runner,
    calls,
    contexts,
    lines,
    steps: (jobId: number) => calls.filter((c) => c.job_id === jobId).map((c) => c.step),
    last: (jobId: number, step: string) => [...calls].reverse().find((c) => c.job_id === jobId && c.step === step),
  };
}

type StoredJob = NonNullable<Awaited<ReturnType<LocalJobStore['getJob']>>>;

/**
 * Job records for the runner's store: created one second apart in id order (a lower id is older),
 * with the queue positions the runner records on them.
 */
function recordsStore(jobs: Record<number, Partial<StoredJob>> = {}) {
  const base = Date.parse('2026-11-01T00:00:00Z');
  const records = new Map<number, StoredJob>();
  const record = (jobId: number) => {
    let job = records.get(jobId);
    if (!job) {
      job = { status: 'processing', mode: 'auto', method: 'prompt', created_at: new Date(base + jobId * 1000).toISOString(), ...jobs[jobId] };
      records.set(jobId, job);
    }
    return job;
  };
  const positionWrites: [number, number | null][] = [];
  const store: LocalJobStore = {
    listActiveJobs: async () => Object.keys(jobs).map((id) => ({ accountId: 1, jobId: Number(id) })),
    getJob: async (_accountId, jobId) => ({ ...record(jobId) }),
    setQueuePosition: async (_accountId, jobId, position) => {
      record(jobId).queue_position = position;
      positionWrites.push([jobId, position]);
    },
  };
  return { store, positionWrites, positionOf: (jobId: number) => record(jobId).queue_position ?? null };
}

/** A copy of the real ASL with some states changed. */
function definitionWith(change: (definition: { States: Record<string, Record<string, unknown>> } & Record<string, unknown>) => void) {
  const definition = JSON.parse(readFileSync(join(ROOT, JOB_STATE_MACHINE_FILE), 'utf8'));
  change(definition);
  const file = join(tmpDir, `definition-${random().toString(36).slice(2)}.asl.json`);
  writeFileSync(file, JSON.stringify(definition));
  return file;
}

let tmpDir: string;
let runners: LocalJobRunner[] = [];
beforeAll(() => {
  tmpDir = mkdtempSync(join(tmpdir(), 'job-runner-'));
});
afterAll(() => rmSync(tmpDir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
});

describe('the local job runner', () => {
  test('an auto job visits Start, GenerateReaction, Compose, Finalize in order and succeeds', async () => {
    const h = harness();
    await h.runner.start(auto(1));
    await h.runner.idle();
    expect(h.steps(1)).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
    expect(h.calls[0]).toEqual({ step: 'prepare', account_id: 1, job_id: 1 });
    expect(h.contexts.map((c) => c.only)).toEqual(['steps', 'render', 'render', 'steps']);
    expect(h.lines.join('\n')).toMatch(/job 1 \(account 1\): execution succeeded/);
  });

  test('a reuse job goes through GenerateReaction like any job (the step keeps its saved clip: no Choice state to pay for)', async () => {
    const h = harness();
    await h.runner.start(auto(2, 'reuse'));
    await h.runner.idle();
    expect(h.steps(2)).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
  });

  test('a preview job waits at AwaitDecision with a token; approve resumes into Compose and Finalize', async () => {
    const h = harness();
    await h.runner.start(preview(3));
    await h.runner.idle();
    expect(h.steps(3)).toEqual(['prepare', 'generate_reaction', 'render_preview', 'charge_preview', 'await_decision']);
    const token = h.last(3, 'await_decision')!.task_token!;
    expect(token).toMatch(/^local-[0-9a-f-]{36}$/);
    expect(h.runner.pendingTokens()).toEqual([token]);

    await h.runner.sendDecision(token, { action: 'approve' });
    await h.runner.idle();
    expect(h.steps(3).slice(5)).toEqual(['compose', 'finalize']);
    expect(h.lines.join('\n')).toMatch(/job 3 .*execution succeeded/);
    await expect(h.runner.sendDecision(token, { action: 'approve' })).rejects.toBeInstanceOf(TaskTokenInvalid);
  });

  test('regenerate loops back through GenerateReaction with a new token; the old one is refused', async () => {
    const h = harness();
    await h.runner.start(preview(4));
    await h.runner.idle();
    const first = h.last(4, 'await_decision')!.task_token!;

    await h.runner.sendDecision(first, { action: 'regenerate', regenerations: 1 });
    await h.runner.idle();
    expect(h.steps(4).slice(5)).toEqual(['generate_reaction', 'render_preview', 'charge_preview', 'await_decision']);
    const second = h.last(4, 'await_decision')!.task_token!;
    expect(second).not.toBe(first);
    expect(h.runner.pendingTokens()).toEqual([second]);
    await expect(h.runner.sendDecision(first, { action: 'approve' })).rejects.toBeInstanceOf(TaskTokenInvalid);
    await expect(h.runner.sendDecision('local-made-up', { action: 'approve' })).rejects.toBeInstanceOf(TaskTokenInvalid);

    await h.runner.sendDecision(second, { action: 'approve' });
    await h.runner.idle();
    expect(h.steps(4).slice(-2)).toEqual(['compose', 'finalize']);
  });

  test('a generation waiting on its hosted provider parks at AwaitProvider with a token; the webhook\'s ProviderReady resumes GenerateReaction, and no step runs meanwhile', async () => {
    const h = harness((p, attempt) => (p.step === 'generate_reaction' ? { awaiting_provider: attempt === 1 } : undefined));
    await h.runner.start(auto(70));
    await h.runner.idle();
    expect(h.steps(70)).toEqual(['prepare', 'generate_reaction', 'await_provider']);
    const token = h.last(70, 'await_provider')!.task_token!;
    expect(h.runner.pendingTokens()).toEqual([token]);
    await sleep(100);
    expect(h.steps(70)).toHaveLength(3);

    await h.runner.sendDecision(token, { action: 'provider_ready' });
    await h.runner.idle();
    expect(h.steps(70).slice(3)).toEqual(['generate_reaction', 'compose', 'finalize']);
    expect(h.lines.join('\n')).toMatch(/job 70 .*execution succeeded/);
    await expect(h.runner.sendDecision(token, { action: 'provider_ready' })).rejects.toBeInstanceOf(TaskTokenInvalid);
  });

  test('a webhook that never comes: AwaitProvider times out back into GenerateReaction, which asks the provider itself', async () => {
    const definitionPath = definitionWith((d) => {
      d.States.AwaitProvider!.TimeoutSeconds = 1;
    });
    const h = harness((p, attempt) => (p.step === 'generate_reaction' ? { awaiting_provider: attempt === 1 } : undefined), { definitionPath });
    const started = Date.now();
    await h.runner.start(auto(71));
    await eventually(() => h.steps(71).includes('finalize'), 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(h.steps(71)).toEqual(['prepare', 'generate_reaction', 'await_provider', 'generate_reaction', 'compose', 'finalize']);
  });

  test('a lost webhook whose request then fails as timed out ends the job through MarkFailed, not in a wait without end', async () => {
    const definitionPath = definitionWith((d) => {
      d.States.AwaitProvider!.TimeoutSeconds = 1;
    });
    const h = harness(
      (p, attempt) => {
        if (p.step !== 'generate_reaction') return undefined;
        if (attempt === 1) return { awaiting_provider: true };
        throw namedError('Job.Failed', JSON.stringify({ code: 'timeout', message: 'The generation took longer than 600 s' }));
      },
      { definitionPath },
    );
    await h.runner.start(auto(72));
    await eventually(() => h.steps(72).includes('mark_failed'), 10_000);
    await h.runner.idle();
    expect(h.steps(72)).toEqual(['prepare', 'generate_reaction', 'await_provider', 'generate_reaction', 'mark_failed']);
    expect(h.runner.pendingTokens()).toEqual([]);
  });

  test('twenty regenerations of one job each issue a new token, then approve finishes it', async () => {
    const h = harness();
    await h.runner.start(preview(15));
    await h.runner.idle();
    const tokens = new Set<string>();
    for (let round = 1; round <= 20; round++) {
      const token = h.runner.pendingTokens()[0]!;
      tokens.add(token);
      await h.runner.sendDecision(token, { action: 'regenerate', regenerations: round });
      await h.runner.idle();
    }
    expect(tokens.size).toBe(20);
    await h.runner.sendDecision(h.runner.pendingTokens()[0]!, { action: 'approve' });
    await h.runner.idle();
    expect(h.steps(15).slice(-2)).toEqual(['compose', 'finalize']);
    expect(h.steps(15).filter((s) => s === 'generate_reaction')).toHaveLength(21);
  });

  test('a regeneration past the cap goes to MarkFailed through DecisionRefused', async () => {
    const h = harness();
    await h.runner.start(preview(5));
    await h.runner.idle();
    await h.runner.sendDecision(h.last(5, 'await_decision')!.task_token!, { action: 'regenerate', regenerations: 21 });
    await h.runner.idle();
    expect(h.steps(5).slice(-1)).toEqual(['mark_failed']);
    expect(JSON.parse(h.last(5, 'mark_failed')!.failure!.Cause!)).toMatchObject({ code: 'internal_error' });
  });

  test('a Job.Retryable error is retried: the step sees a second call', async () => {
    const h = harness((p, attempt) => {
      if (p.step === 'generate_reaction' && attempt === 1) throw namedError('Job.Retryable', 'provider busy');
    });
    await h.runner.start(auto(6));
    await h.runner.idle();
    expect(h.steps(6)).toEqual(['prepare', 'generate_reaction', 'generate_reaction', 'compose', 'finalize']);
  });

  test('retries run out after MaxAttempts, then MarkFailed gets the last error', async () => {
    const h = harness((p) => {
      if (p.step === 'prepare') throw namedError('Job.Retryable', 'still busy');
    });
    await h.runner.start(auto(7));
    await h.runner.idle();
    expect(h.steps(7)).toEqual(['prepare', 'prepare', 'prepare', 'prepare', 'mark_failed']);
    expect(h.last(7, 'mark_failed')!.failure!.Error).toBe('Job.Retryable');
  });

  test('a Job.Failed error goes to MarkFailed with Error and the Lambda-shaped Cause; the execution ends failed', async () => {
    const message = JSON.stringify({ code: 'generation_failed', message: 'The engine refused the prompt' });
    const h = harness((p) => {
      if (p.step === 'generate_reaction') throw namedError('Job.Failed', message);
    });
    await h.runner.start(auto(8));
    await h.runner.idle();
    expect(h.steps(8)).toEqual(['prepare', 'generate_reaction', 'mark_failed']);
    const failure = h.last(8, 'mark_failed')!.failure!;
    expect(failure.Error).toBe('Job.Failed');
    const cause = JSON.parse(failure.Cause!);
    expect(cause).toMatchObject({ errorType: 'Job.Failed', errorMessage: message });
    expect(Array.isArray(cause.trace)).toBe(true);
    expect(h.lines.join('\n')).toMatch(/job 8 .*execution failed with JobFailed/);
  });

  test('when MarkFailed itself keeps failing the execution ends in FailureNotRecorded', async () => {
    const h = harness((p) => {
      if (p.step === 'prepare') throw namedError('Job.Failed', 'gone');
      if (p.step === 'mark_failed') throw new Error('table unavailable');
    });
    await h.runner.start(auto(9));
    await h.runner.idle();
    expect(h.steps(9).filter((s) => s === 'mark_failed')).toHaveLength(6);
    expect(h.lines.join('\n')).toMatch(/job 9 .*failed with JobFailureNotRecorded/);
  });

  test('an expires_at already past ends the wait in PreviewExpired, then MarkFailed', async () => {
    const h = harness((p) => (p.step === 'await_decision' ? { expires_at: new Date(Date.now() - 1000).toISOString() } : undefined));
    await h.runner.start(preview(10));
    await h.runner.idle();
    expect(h.steps(10).slice(-2)).toEqual(['await_decision', 'mark_failed']);
    const failure = h.last(10, 'mark_failed')!.failure!;
    expect(failure.Error).toBe('Job.Failed');
    expect(JSON.parse(failure.Cause!)).toMatchObject({ code: 'preview_expired' });
    const token = h.last(10, 'await_decision')!.task_token!;
    await expect(h.runner.sendDecision(token, { action: 'approve' })).rejects.toBeInstanceOf(TaskTokenInvalid);
  });

  test('an expires_at in the near future: the job waits, then expires', async () => {
    const h = harness((p) => (p.step === 'await_decision' ? { expires_at: new Date(Date.now() + 300).toISOString() } : undefined));
    await h.runner.start(preview(11));
    await h.runner.idle();
    expect(h.steps(11).slice(-1)).toEqual(['await_decision']);
    expect(h.runner.pendingTokens()).toHaveLength(1);
    await eventually(() => h.steps(11).includes('mark_failed'));
    expect(JSON.parse(h.last(11, 'mark_failed')!.failure!.Cause!)).toMatchObject({ code: 'preview_expired' });
    expect(h.runner.pendingTokens()).toEqual([]);
  });

  test('AwaitDecision waits as long as ChargePreview answered (its TimeoutSecondsPath), without expires_at', async () => {
    const h = harness((p) => (p.step === 'charge_preview' ? { decision_wait_s: 1 } : p.step === 'await_decision' ? {} : undefined));
    await h.runner.start(preview(12));
    await h.runner.idle();
    expect(h.runner.pendingTokens()).toHaveLength(1);
    await eventually(() => h.steps(12).includes('mark_failed'));
    expect(JSON.parse(h.last(12, 'mark_failed')!.failure!.Cause!)).toMatchObject({ code: 'preview_expired' });
  });

  test('each round waits what its ChargePreview answered: a regenerated round with 1 s left expires after 1 s', async () => {
    // charge-preview.ts answers the time left to the job's one deadline: here an hour, then 1 s. Only
    // the second round's wait can end within this test, so its expiry shows which wait the round kept.
    const h = harness((p, attempt) => {
      if (p.step === 'charge_preview') return { decision_wait_s: attempt === 1 ? 3600 : 1 };
      return p.step === 'await_decision' ? {} : undefined;
    });
    await h.runner.start(preview(14));
    await h.runner.idle();
    await h.runner.sendDecision(h.runner.pendingTokens()[0]!, { action: 'regenerate', regenerations: 1 });
    await h.runner.idle();
    await eventually(() => h.steps(14).includes('mark_failed'), 20_000);
    expect(h.steps(14).filter((s) => s === 'await_decision')).toHaveLength(2);
    expect(JSON.parse(h.last(14, 'mark_failed')!.failure!.Cause!)).toMatchObject({ code: 'preview_expired' });
  });

  test('a wait past what one Node timer holds (31 days) does not fire at once', async () => {
    const definitionPath = definitionWith((d) => {
      d.TimeoutSeconds = 40 * DAY_S;
    });
    const h = harness((p) => (p.step === 'charge_preview' ? { decision_wait_s: 31 * DAY_S } : p.step === 'await_decision' ? {} : undefined), { definitionPath });
    // Node fires a timer asked to wait longer than MAX_TIMER_MS at once: none of the execution's is.
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      await h.runner.start(preview(13));
      await h.runner.idle();
      expect(timers.mock.calls.map(([, ms]) => ms ?? 0).filter((ms) => ms > MAX_TIMER_MS)).toEqual([]);
    } finally {
      timers.mockRestore();
    }
    expect(h.steps(13).slice(-1)).toEqual(['await_decision']);
    await h.runner.sendDecision(h.runner.pendingTokens()[0]!, { action: 'approve' });
    await h.runner.idle();
    expect(h.steps(13).slice(-2)).toEqual(['compose', 'finalize']);
  });

  describe('an execution that ends without succeeding', () => {
    const endedHarness = (behave: Parameters<typeof harness>[0], options: Partial<LocalJobRunnerOptions> = {}) => {
      const ended: unknown[] = [];
      const h = harness(behave, { ...options, executionEnded: async (e) => ended.push(e) });
      return { ...h, ended };
    };

    test("ends at the execution's TimeoutSeconds, without MarkFailed, and is handed to executionEnded as TIMED_OUT", async () => {
      const definitionPath = definitionWith((d) => {
        d.TimeoutSeconds = 1;
      });
      const h = endedHarness(
        (p, _attempt, signal) => (p.step === 'compose' ? new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) : undefined),
        { definitionPath },
      );
      await h.runner.start(auto(30));
      await eventually(() => h.ended.length > 0, 3000);
      expect(h.ended).toEqual([{ account_id: 1, job_id: 30, status: 'TIMED_OUT' }]);
      expect(h.steps(30)).not.toContain('mark_failed');
      expect(h.lines.join('\n')).toMatch(/job 30 .*timed out after 1 s/);
      // Like an execution name on AWS, the job is not started again in this process.
      await h.runner.start(auto(30));
      await h.runner.idle();
      expect(h.steps(30).filter((s) => s === 'prepare')).toHaveLength(1);
    });

    test('a waiting preview is cut short by the execution timeout too', async () => {
      const definitionPath = definitionWith((d) => {
        d.TimeoutSeconds = 1;
      });
      const h = endedHarness(() => undefined, { definitionPath });
      await h.runner.start(preview(31));
      await h.runner.idle();
      expect(h.runner.pendingTokens()).toHaveLength(1);
      await eventually(() => h.ended.length > 0, 3000);
      expect(h.ended).toEqual([{ account_id: 1, job_id: 31, status: 'TIMED_OUT' }]);
      expect(h.runner.pendingTokens()).toEqual([]);
    });

    test('a resumed job counts its execution time from its creation: one past it times out at once', async () => {
      const definitionPath = definitionWith((d) => {
        d.TimeoutSeconds = 3600;
      });
      const { store } = recordsStore({ 32: { status: 'processing', resume_at: 'Compose', created_at: new Date(Date.now() - 2 * 3600_000).toISOString() } });
      const h = endedHarness(() => undefined, { definitionPath, store });
      await h.runner.resumeActiveJobs();
      await eventually(() => h.ended.length > 0, 3000);
      expect(h.ended).toEqual([{ account_id: 1, job_id: 32, status: 'TIMED_OUT' }]);
    });

    test('one that fails (here after MarkFailed recorded it) is handed over as FAILED with its Error', async () => {
      const h = endedHarness((p) => {
        if (p.step === 'compose') throw namedError('Job.Failed', JSON.stringify({ code: 'render_failed', message: 'no' }));
        return undefined;
      });
      await h.runner.start(auto(33));
      await eventually(() => h.ended.length > 0);
      expect(h.steps(33).slice(-1)).toEqual(['mark_failed']);
      expect(h.ended).toEqual([expect.objectContaining({ account_id: 1, job_id: 33, status: 'FAILED', error: 'JobFailed' })]);
    });

    test('one stopped by the runner is not handed over: the next start resumes it', async () => {
      const h = endedHarness(() => undefined);
      await h.runner.start(preview(34));
      await h.runner.idle();
      await h.runner.stop();
      expect(h.ended).toEqual([]);
    });
  });

  test('deadlineTimer chains timers for deadlines months away', () => {
    jest.useFakeTimers();
    try {
      const fired = jest.fn();
      deadlineTimer(Date.now() + 40 * DAY_S * 1000, fired);
      jest.advanceTimersByTime(MAX_TIMER_MS + 1000);
      expect(fired).not.toHaveBeenCalled();
      jest.advanceTimersByTime(39 * DAY_S * 1000 - MAX_TIMER_MS - 1000);
      expect(fired).not.toHaveBeenCalled();
      jest.advanceTimersByTime(DAY_S * 1000);
      expect(fired).toHaveBeenCalledTimes(1);

      const tightened = jest.fn();
      const timer = deadlineTimer(Date.now() + 30 * DAY_S * 1000, tightened);
      timer.tighten(Date.now() + 1000);
      jest.advanceTimersByTime(1000);
      expect(tightened).toHaveBeenCalledTimes(1);

      const cancelled = jest.fn();
      deadlineTimer(Date.now() + 1000, cancelled).cancel();
      jest.advanceTimersByTime(2000);
      expect(cancelled).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });

  test('start() twice for the same job runs one execution, and an ended job is not started again', async () => {
    const h = harness();
    await Promise.all([h.runner.start(auto(14)), h.runner.start(auto(14))]);
    await h.runner.start(auto(14));
    await h.runner.idle();
    expect(h.steps(14)).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
    await h.runner.start(auto(14));
    await h.runner.idle();
    expect(h.steps(14)).toHaveLength(4);
  });

  describe('resumeActiveJobs', () => {
    const storeOf = (jobs: Record<number, StoredJob>): LocalJobStore => ({
      listActiveJobs: async () => Object.keys(jobs).map((id) => ({ accountId: 1, jobId: Number(id) })),
      getJob: async (_accountId, jobId) => jobs[jobId],
    });

    test('re-enters each job at its recorded state', async () => {
      const store = storeOf({
        20: { status: 'processing', mode: 'auto', method: 'prompt', resume_at: 'Compose' },
        21: { status: 'preview_ready', mode: 'preview', method: 'prompt', resume_at: 'AwaitDecision', preview_expires_at: inAnHour() },
        22: { status: 'processing', mode: 'auto', method: 'motion', resume_at: 'MarkFailed' },
        23: { status: 'queued', mode: 'auto', method: 'reuse', resume_at: null },
        24: { status: 'done', mode: 'auto', method: 'prompt', resume_at: 'Finalize' },
      });
      const h = harness(undefined, { store });
      await expect(h.runner.resumeActiveJobs()).resolves.toBe(4);
      // The resumed preview already has its new token when resume returns: approve works at once.
      const token = h.last(21, 'await_decision')!.task_token!;
      expect(h.runner.pendingTokens()).toContain(token);
      await h.runner.idle();

      expect(h.steps(20)).toEqual(['compose', 'finalize']);
      expect(h.steps(21)).toEqual(['await_decision']);
      expect(h.steps(22)).toEqual(['mark_failed']);
      expect(h.last(22, 'mark_failed')!.failure).toEqual(INTERRUPTED_FAILURE);
      expect(h.steps(23)).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
      expect(h.steps(24)).toEqual([]);

      await h.runner.sendDecision(token, { action: 'approve' });
      await h.runner.idle();
      expect(h.steps(21)).toEqual(['await_decision', 'compose', 'finalize']);
    });

    test('a preview that expired while the process was down goes to PreviewExpired without a new wait', async () => {
      const store = storeOf({
        25: {
          status: 'preview_ready',
          mode: 'preview',
          method: 'prompt',
          resume_at: 'AwaitDecision',
          preview_expires_at: new Date(Date.now() - 60_000).toISOString(),
        },
      });
      const h = harness(undefined, { store });
      await h.runner.resumeActiveJobs();
      await h.runner.idle();
      expect(h.steps(25)).toEqual(['mark_failed']);
      expect(JSON.parse(h.last(25, 'mark_failed')!.failure!.Cause!)).toMatchObject({ code: 'preview_expired' });
    });

    test('skips jobs already running here; an unknown recorded state fails the job', async () => {
      const store = storeOf({
        26: { status: 'preview_ready', mode: 'preview', method: 'prompt', resume_at: 'AwaitDecision', preview_expires_at: inAnHour() },
        27: { status: 'processing', mode: 'auto', method: 'prompt', resume_at: 'NoSuchState' },
      });
      const h = harness(undefined, { store });
      await h.runner.start(preview(26));
      await h.runner.idle();
      await expect(h.runner.resumeActiveJobs()).resolves.toBe(1);
      await h.runner.idle();
      expect(h.steps(26).filter((s) => s === 'await_decision')).toHaveLength(1);
      expect(h.steps(27)).toEqual(['mark_failed']);
    });
  });

  test('stop() aborts running and waiting executions without MarkFailed; later steps are not called', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const h = harness(
      async (p) => {
        if (p.step === 'generate_reaction' && p.job_id === 30) await blocked;
        return undefined;
      },
      { stopGraceMs: 50 },
    );
    await h.runner.start(auto(30));
    await h.runner.start(preview(31));
    await eventually(() => h.steps(30).includes('generate_reaction') && h.runner.pendingTokens().length === 1);
    const token = h.runner.pendingTokens()[0]!;

    const blockedSignal = h.contexts[h.calls.findIndex((c) => c.job_id === 30 && c.step === 'generate_reaction')]!.signal;
    expect(blockedSignal.aborted).toBe(false);
    await h.runner.stop();
    expect(blockedSignal.aborted).toBe(true);
    release();
    // Stopping again waits for the released step to hand its answer back: its chance to go on.
    await h.runner.stop();
    expect(h.calls.map((c) => c.step)).not.toContain('mark_failed');
    expect(h.steps(30)).toEqual(['prepare', 'generate_reaction']);
    await expect(h.runner.sendDecision(token, { action: 'approve' })).rejects.toBeInstanceOf(TaskTokenInvalid);
    await expect(h.runner.start(auto(32))).rejects.toThrow(/stopped/);
    expect(h.lines.join('\n')).toMatch(/job 30 .*stopped/);
    await h.runner.idle();
  });

  test('render-function steps never exceed the concurrency; queueing does not count against a Task timeout', async () => {
    const definitionPath = definitionWith((d) => {
      d.States.GenerateReaction!.TimeoutSeconds = 1;
    });
    let running = 0;
    let peak = 0;
    const h = harness(
      async (p) => {
        if (p.step !== 'generate_reaction' && p.step !== 'compose') return undefined;
        running++;
        peak = max(peak, running);
        await sleep(p.step === 'generate_reaction' ? 400 : 50);
        running--;
        return undefined;
      },
      { definitionPath, renderConcurrency: 2, store: recordsStore().store },
    );
    const ids = [40, 41, 42, 43, 44, 45];
    await Promise.all(ids.map((id) => h.runner.start(auto(id))));
    await h.runner.idle();
    expect(peak).toBe(2);
    for (const id of ids) expect(h.steps(id)).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
  });

  describe('render slots go to the oldest job first', () => {
    const renderSteps = new Set(['generate_reaction', 'render_preview', 'compose']);

    test('a job submitted first finishes before the jobs submitted after it, though they all want the slot', async () => {
      const records = recordsStore();
      const finished: number[] = [];
      const shownWhileRendering: (number | null)[] = [];
      const h = harness(
        async (p) => {
          if (renderSteps.has(p.step)) {
            shownWhileRendering.push(records.positionOf(p.job_id));
            await sleep(p.step === 'generate_reaction' ? 20 : 5);
          }
          if (p.step === 'finalize') finished.push(p.job_id);
          return undefined;
        },
        { renderConcurrency: 1, store: records.store },
      );
      const ids = [70, 71, 72, 73, 74];
      for (const id of ids) await h.runner.start(auto(id));
      await h.runner.idle();

      expect(finished).toEqual(ids);
      // Each job's Compose went ahead of the newer jobs' generation.
      const renders = h.calls.filter((c) => renderSteps.has(c.step)).map((c) => `${c.job_id} ${c.step}`);
      expect(renders).toEqual(ids.flatMap((id) => [`${id} generate_reaction`, `${id} compose`]));
      // Waiting showed on the records, and no step ran while its record still said it was waiting.
      expect(records.positionWrites.some(([, position]) => position !== null)).toBe(true);
      expect(shownWhileRendering.every((position) => position === null)).toBe(true);
      for (const id of ids) expect(records.positionOf(id)).toBeNull();
    });

    test('a burst of 60 jobs against a cap of 2: every one done, none failed, finished oldest first, never more than 2 rendering', async () => {
      const records = recordsStore();
      const finished: number[] = [];
      let rendering = 0;
      let peak = 0;
      const h = harness(
        async (p) => {
          if (renderSteps.has(p.step)) {
            peak = max(peak, ++rendering);
            await sleep(2);
            rendering--;
          }
          if (p.step === 'finalize') finished.push(p.job_id);
          return undefined;
        },
        { renderConcurrency: 2, store: records.store },
      );
      const ids = Array.from({ length: 60 }, (_, i) => 1000 + i);
      for (const id of ids) await h.runner.start(auto(id));
      await h.runner.idle();
      expect(peak).toBe(2);
      expect(finished).toEqual(ids);
      expect(h.calls.filter((c) => c.step === 'mark_failed')).toEqual([]);
    });

    test('60 jobs at once against a cap of 2, throttled as Lambda throttles (LOCAL_LAMBDA_THROTTLE=1): a render step over the cap is refused, the job waits in AwaitCapacity and WaitForCapacity and goes back to the refused Task; all done, none fails', async () => {
      const records = recordsStore();
      let rendering = 0;
      let peak = 0;
      const finished: number[] = [];
      const capacityTurns: { jobId: number; resume: string }[] = [];
      const h = harness(
        async (p) => {
          if (p.step === 'await_capacity') {
            const resume = Object.keys(p.throttled ?? {}).find((key) => key !== 'wait_s' && key !== 'resume')!;
            capacityTurns.push({ jobId: p.job_id, resume });
            return { wait_s: 1, resume };
          }
          if (renderSteps.has(p.step)) {
            peak = max(peak, ++rendering);
            await sleep(5);
            rendering--;
          }
          if (p.step === 'finalize') finished.push(p.job_id);
          return undefined;
        },
        { renderConcurrency: 2, throttle: true, store: records.store, capacityWaitMs: 5 },
      );
      const ids = Array.from({ length: 60 }, (_, i) => 2000 + i);
      await Promise.all(ids.map((id) => h.runner.start(auto(id))));
      await h.runner.idle();
      expect(peak).toBe(2);
      expect([...finished].sort()).toEqual(ids);
      expect(h.calls.filter((c) => c.step === 'mark_failed')).toEqual([]);
      expect(h.lines.filter((line) => / throttled, the render function is at its cap$/.test(line)).length).toBe(capacityTurns.length);
      // Refusals went through the loop, each back to the Task that was refused, and a refused step never ran.
      expect(capacityTurns.length).toBeGreaterThan(0);
      // (A job keeps its slot from its generation to its Compose, so here the refusals are of generations.)
      expect(new Set(capacityTurns.map((turn) => turn.resume))).toEqual(new Set(['GenerateReaction']));
      for (const id of ids) expect(h.steps(id).filter((step) => step !== 'await_capacity')).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
      // Nothing queued for a slot, so no record showed a position.
      expect(records.positionWrites.filter(([, position]) => position !== null)).toEqual([]);
    });

    test('a job resumed after a restart keeps its age: it goes before newer jobs already waiting', async () => {
      const records = recordsStore({ 90: { status: 'processing', resume_at: 'GenerateReaction' } });
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((r) => (releaseFirst = r));
      const h = harness(
        async (p) => {
          if (p.step === 'generate_reaction' && p.job_id === 91) await firstHolds;
          return undefined;
        },
        { renderConcurrency: 1, store: records.store },
      );
      await h.runner.start(auto(91));
      await h.runner.start(auto(92));
      await eventually(() => records.positionOf(92) === 1);
      await h.runner.resumeActiveJobs();
      await eventually(() => records.positionOf(90) === 1 && records.positionOf(92) === 2);
      releaseFirst();
      await h.runner.idle();
      const generations = h.calls.filter((c) => c.step === 'generate_reaction').map((c) => c.job_id);
      expect(generations).toEqual([91, 90, 92]);
    });

    test('a position left on a record by a stopped process is cleared when the job resumes', async () => {
      const records = recordsStore({ 95: { status: 'processing', resume_at: 'Finalize', queue_position: 4 } });
      const h = harness(undefined, { store: records.store });
      await h.runner.resumeActiveJobs();
      await h.runner.idle();
      await eventually(() => records.positionOf(95) === null);
      expect(h.steps(95)).toEqual(['finalize']);
    });
  });

  test('a step running past its TimeoutSeconds fails with States.Timeout', async () => {
    const definitionPath = definitionWith((d) => {
      d.States.Compose!.TimeoutSeconds = 1;
    });
    let composeSignal: AbortSignal | undefined;
    const h = harness(
      async (p, _attempt, signal) => {
        if (p.step !== 'compose') return undefined;
        composeSignal = signal;
        // Runs until the Task gives up on it, as a Lambda runs until its timeout ends it.
        await new Promise((resolveAborted) => signal.addEventListener('abort', resolveAborted));
        return undefined;
      },
      { definitionPath },
    );
    await h.runner.start(auto(50));
    await h.runner.idle();
    expect(h.steps(50)).toEqual(['prepare', 'generate_reaction', 'compose', 'mark_failed']);
    expect(h.last(50, 'mark_failed')!.failure!.Error).toBe('States.Timeout');
    // The step is told to stop, as a Lambda would be ended at its timeout.
    expect(composeSignal?.aborted).toBe(true);
    expect((composeSignal?.reason as Error).name).toBe('States.Timeout');
  });

  test('a render step that succeeds after its Task timed out hands its slot back, so later jobs still render', async () => {
    const definitionPath = definitionWith((d) => {
      d.States.Compose!.TimeoutSeconds = 1;
    });
    let lateSuccess!: () => void;
    const succeededLate = new Promise<void>((r) => (lateSuccess = r));
    const h = harness(
      async (p, _attempt, signal) => {
        // Job 60's Compose ignores its abort, as a step past the point of no return would, and succeeds late.
        if (p.job_id === 60 && p.step === 'compose') {
          await new Promise((resolveAborted) => signal.addEventListener('abort', resolveAborted));
          lateSuccess();
        }
        return undefined;
      },
      { definitionPath, renderConcurrency: 1, store: recordsStore().store },
    );
    await h.runner.start(auto(60));
    await h.runner.idle();
    expect(h.steps(60)).toEqual(['prepare', 'generate_reaction', 'compose', 'mark_failed']);
    await succeededLate;
    await h.runner.start(auto(61));
    await eventually(() => h.steps(61).includes('finalize'), 10_000);
    expect(h.steps(61)).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
  });

  test('wrapStep sees every step call', async () => {
    const wrapped: string[] = [];
    const h = harness(undefined, {
      wrapStep: (payload, call) => {
        wrapped.push(payload.step);
        return call();
      },
    });
    await h.runner.start(auto(60, 'reuse'));
    await h.runner.idle();
    expect(wrapped).toEqual(['prepare', 'generate_reaction', 'compose', 'finalize']);
  });

  test('a definition whose Task names the wrong function for its step is refused', () => {
    const definitionPath = definitionWith((d) => {
      (d.States.Compose!.Parameters as { FunctionName: string }).FunctionName = '${JobStepsFunctionArn}';
    });
    expect(() => createLocalJobRunner({ runStep: async () => ({}), definitionPath })).toThrow(/Task Compose invokes \$\{JobStepsFunctionArn\}, not the render function/);
  });
});
