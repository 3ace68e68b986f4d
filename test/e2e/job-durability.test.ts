/**
 * Job durability and the allowance's exactly-once rule, end to end on real components:
 * the real ASL run by the local runner, the real pipeline steps, DynamoDB Local, s3rver, ffmpeg and
 * the local engine.
 *
 * - `npm start` as a child process (tsx bin/serve.ts, DATA_DIR and PORT=0) killed with SIGKILL in the
 *   middle of a job, or while a preview waits, then started again on the same data dir.
 * - In process (startLocalStack): a crash right after Finalize charged the unit, the allowance under
 *   concurrent POST /videos, forced Task retries after a step did its work, a failing generation and
 *   a Task timeout. Faults go in through the runner's own options (`wrapStep`, `definitionPath`,
 *   `store`) and the engine port's override; no product code is changed for them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createLocalJobRunner, type LocalJobRunner, type LocalJobRunnerOptions, type LocalJobStore } from '#local/job-runner';
import { localPipeline } from '#local/pipeline-steps';
import { enterStep } from '#pipeline/job-context';
import { chargeCurrentRound } from '#pipeline/tasks/charges';
import { JOB_STATE_MACHINE_FILE, type StepPayload } from '#pipeline/steps';
import type { StoredJob } from '#domain/job-execution';
import { keys } from '#adapters/dynamodb/keys';
import { EngineError, type ReactionEngine } from '#ports/engine';
import { billingPeriodOf } from '#domain/billing-period';
import { jobObjectPrefix, JOB_ERROR_CODES, type JobStatus } from '#domain/jobs';
import type { PlanName } from '#domain/plans';
import { apiClient, expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { JOB_STATE } from '#domain/job-states';
const { max } = Math;

const ROOT = resolve(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when `promise` settles within `ms`; the timer is cleared either way. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const PROMPT = 'shocked by how cheap it is';
const HOOK = 'Wait for it… 😱';
const autoJob = (productId: number) => ({ product_id: productId, method: 'prompt', prompt: PROMPT, hook_text: HOOK });
const previewJob = (productId: number) => ({ ...autoJob(productId), mode: 'preview' });

function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

async function download(url: string) {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

const allowanceOf = async (api: ApiClient) => {
  const res = await api.get('/usage');
  expect(res.status).toBe(200);
  return res.body.data.allowance as { limit: number; used: number; reserved: number; remaining: number };
};

/**
 * Polls GET /videos/jobs/{id} over HTTP until `done(job)` holds. Polling counts against the account's
 * 120 requests a minute, so a 429 waits its Retry-After instead of failing the test.
 */
async function pollJob(
  api: ApiClient,
  jobId: number,
  done: (job: any) => boolean,
  options: { timeoutMs: number; everyMs: number; context?: () => string },
) {
  const until = Date.now() + options.timeoutMs;
  let last: any;
  for (;;) {
    const res = await api.get(`/videos/jobs/${jobId}`);
    if (res.status === 429) {
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
      continue;
    }
    expect(res.status).toBe(200);
    last = res.body.data;
    if (done(last)) return last;
    if (Date.now() > until) {
      const context = options.context ? `\n--- service output (tail) ---\n${options.context().slice(-4000)}` : '';
      throw new Error(`job ${jobId} never reached the expected state; last seen: ${JSON.stringify(last)}${context}`);
    }
    await sleep(options.everyMs);
  }
}

// ---------------------------------------------------------------------------------------------------
// `npm start` as a child process
// ---------------------------------------------------------------------------------------------------

interface Service {
  proc: ChildProcess;
  apiUrl: string;
  /** The demo key, printed on the first start only. */
  demoKey?: string;
  /** The process running bin/serve.ts (tsx runs it in a child node process), from runtime.json. */
  servePid: number;
  output(): string;
  exited: Promise<void>;
}

function procStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(name)]);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Running, not a zombie. */
const isAlive = (pid: number) => {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
};

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
};

/** Processes this file's services left behind (after SIGKILL); ended by pid in afterAll. */
const leftBehind = new Set<number>();
const services = new Set<Service>();

async function startServiceOnce(dataDir: string): Promise<Service> {
  const proc = spawn(TSX, [join(ROOT, 'bin', 'serve.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start was not ready in 120 s:\n${output}`)), 120_000);
    proc.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolveReady();
      }
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  const apiUrl = /Reaction Studio API on (\S+)/.exec(output)?.[1];
  if (!apiUrl) throw new Error(`no API url in the output:\n${output}`);
  const state = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as { pid: number; apiUrl: string };
  expect(state.apiUrl).toBe(apiUrl);
  const service: Service = {
    proc,
    apiUrl,
    demoKey: /^\s+(rsk_[A-Za-z0-9_-]{43})\s*$/m.exec(output)?.[1],
    servePid: state.pid,
    output: () => output,
    exited,
  };
  services.add(service);
  return service;
}

/**
 * Starts `npm start` on the data dir. A start refused because of the runtime.json a killed process
 * left behind is a product bug (the runtime checks that pid): it is recorded, the file removed and
 * the start tried once more so the rest of the test still runs.
 */
async function startService(dataDir: string, refusals: string[] = []): Promise<Service> {
  try {
    return await startServiceOnce(dataDir);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/already running/.test(message)) throw error;
    refusals.push(message);
    rmSync(join(dataDir, 'runtime.json'), { force: true });
    return startServiceOnce(dataDir);
  }
}

/**
 * SIGKILL to the process running bin/serve.ts: no handler runs, nothing is flushed or stopped. Returns
 * the processes it had started that are still running afterwards.
 */
async function crash(service: Service): Promise<{ pid: number; command: string }[]> {
  const tree = descendants(service.proc.pid!).filter((pid) => pid !== service.servePid);
  process.kill(service.servePid, 'SIGKILL');
  // The tsx wrapper exits with its child.
  const gone = await within(service.exited, 10_000);
  if (!gone) service.proc.kill('SIGKILL');
  await service.exited;
  services.delete(service);
  await sleep(300);
  const survivors = tree.filter(isAlive).map((pid) => ({ pid, command: commandOf(pid) }));
  for (const { pid } of survivors) leftBehind.add(pid);
  return survivors;
}

/** Ctrl-C-like stop (SIGTERM to the serve process), as runtime.test.ts does. */
async function stopService(service: Service): Promise<void> {
  if (!services.delete(service)) return;
  if (service.proc.exitCode === null && service.proc.signalCode === null) {
    try {
      process.kill(service.servePid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    const gone = await within(service.exited, 30_000);
    if (!gone) {
      for (const pid of descendants(service.proc.pid!)) leftBehind.add(pid);
      service.proc.kill('SIGKILL');
    }
  }
}

function endLeftBehind(): void {
  for (const pid of leftBehind) {
    try {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  leftBehind.clear();
}

describe('npm start killed with SIGKILL, then started again on the same DATA_DIR', () => {
  let dataDir: string;
  let service: Service | undefined;
  let api: ApiClient;
  let productId: number;
  let demoKey: string;
  const refusals: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rs-durable-'));
    service = await startService(dataDir);
    expect(service.demoKey).toBeDefined();
    demoKey = service.demoKey!;
    api = apiClient(service.apiUrl, demoKey);
    const product = await api.post('/products', { name: 'Durable serum' });
    expect(product.status).toBe(201);
    productId = product.body.data.id;
  }, 180_000);

  afterAll(async () => {
    if (service) await stopService(service);
    endLeftBehind();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** Points `api` at the service after a restart (new port); the key is the same. */
  const restart = async () => {
    service = await startService(dataDir, refusals);
    // The demo key is shown on the first start only.
    expect(service.demoKey).toBeUndefined();
    api = apiClient(service.apiUrl, demoKey);
  };

  test('a job killed while generating its reaction resumes after the restart and ends done, charged once', async () => {
    const before = await allowanceOf(api);
    expect(before).toMatchObject({ used: 0, reserved: 0 });

    const created = await api.post('/videos', autoJob(productId));
    expect(created.status).toBe(202);
    const jobId = created.body.data.id as number;

    const generating = await pollJob(api, jobId, (j) => j.stage === 'generating_reaction' || ['done', 'failed'].includes(j.status) || j.progress > 15, {
      timeoutMs: 30_000,
      everyMs: 100,
      context: () => service?.output() ?? '',
    });
    expect({ status: generating.status, stage: generating.stage }).toEqual({ status: 'processing', stage: 'generating_reaction' });

    await crash(service!);
    service = undefined;
    await restart();
    expect(service!.output()).toMatch(/resumed 1 video job/);

    const done = await pollJob(api, jobId, (j) => j.status === 'done' || j.status === 'failed', { timeoutMs: 180_000, everyMs: 1000, context: () => service?.output() ?? '' });
    expect(done).toMatchObject({ status: 'done', stage: 'done', progress: 100, error: null, charged_units: 1, video_id: expect.any(Number) });

    expect(await allowanceOf(api)).toMatchObject({ used: 1, reserved: 0, remaining: before.limit - 1 });
    const videos = await api.get('/videos');
    expect(videos.body.meta.total).toBe(1);
    const video = await api.get(`/videos/${done.video_id}`);
    expect(video.status).toBe(200);
    expect(video.body.data).toMatchObject({ job_id: jobId, width: 1080, height: 1920 });
    const file = await download(video.body.data.url);
    expect(file.status).toBe(200);
    expect(file.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(refusals).toEqual([]);
  }, 420_000);

  test('a preview waiting at preview_ready survives the kill: still preview_ready with its preview; approve finishes it', async () => {
    if (!service) await restart();
    const before = await allowanceOf(api);

    const created = await api.post('/videos', previewJob(productId));
    expect(created.status).toBe(202);
    const jobId = created.body.data.id as number;
    const ready = await pollJob(api, jobId, (j) => ['preview_ready', 'done', 'failed'].includes(j.status), { timeoutMs: 180_000, everyMs: 1000, context: () => service?.output() ?? '' });
    expect(ready).toMatchObject({ status: 'preview_ready', preview_url: expect.stringMatching(/^http/), charged_units: 1 });
    expect(await allowanceOf(api)).toMatchObject({ used: before.used + 1, reserved: 0 });

    await crash(service!);
    service = undefined;
    await restart();

    const after = await api.get(`/videos/jobs/${jobId}`);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({
      status: 'preview_ready',
      stage: 'awaiting_approval',
      preview_url: expect.stringMatching(/^http/),
      preview_expires_at: ready.preview_expires_at,
      charged_units: 1,
    });
    const preview = await download(after.body.data.preview_url);
    expect(preview.status).toBe(200);
    expect(preview.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const approved = await api.post(`/videos/jobs/${jobId}/approve`, {});
    expect(approved.status).toBe(202);
    const done = await pollJob(api, jobId, (j) => j.status === 'done' || j.status === 'failed', { timeoutMs: 180_000, everyMs: 1000, context: () => service?.output() ?? '' });
    expect(done).toMatchObject({ status: 'done', error: null, charged_units: 1, video_id: expect.any(Number) });
    expect(await allowanceOf(api)).toMatchObject({ used: before.used + 1, reserved: 0 });
    expect(refusals).toEqual([]);
  }, 420_000);
});

describe('npm start killed with SIGKILL', () => {
  test('the next start stops the DynamoDB Local and s3rver it left running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rs-orphans-'));
    try {
      const service = await startService(dataDir);
      // No handler runs on SIGKILL: its service processes outlive it until the next start.
      const survivors = await crash(service);
      const again = await startService(dataDir);
      expect(again.output()).toContain('left running by a stack that was killed');
      expect(survivors.filter(({ pid }) => isAlive(pid))).toEqual([]);
      await stopService(again);
    } finally {
      endLeftBehind();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

// ---------------------------------------------------------------------------------------------------
// In process: startLocalStack, with runners whose steps can be interfered with
// ---------------------------------------------------------------------------------------------------

describe('in process: crashes, retries, failures and the allowance edge', () => {
  let t: TestStack;
  const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);
  const allowanceEntry = async (accountId: number, jobId: number) =>
    (await t.stack.table.client.send(new GetCommand({ TableName: t.stack.table.name, Key: keys.allowanceEntry(accountId, jobId, 1) }))).Item;
  let scratch: string;
  const runners: LocalJobRunner[] = [];
  const runnerLog: string[] = [];
  /** The reaction engine this test's stack uses instead of the configured one. */
  let reactionDouble: ReactionEngine | undefined;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'rs-durable-asl-'));
    t = await startTestStack({
      adjustDependencies: (built) => ({ ...built, engines: { ...built.engines, reaction: async () => reactionDouble ?? built.engines.reaction() } }),
    });
  }, 180_000);

  afterEach(async () => {
    reactionDouble = undefined;
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    t.runner.reset();
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  /** A runner over the real pipeline steps, installed behind POST /videos and approve. */
  function installRunner(options: Partial<LocalJobRunnerOptions> = {}): LocalJobRunner {
    const runner = createLocalJobRunner({
      ...localPipeline(() => t.stack.dependencies),
      retryIntervalOverrides: 0,
      log: (line) => runnerLog.push(line),
      ...options,
    });
    runners.push(runner);
    t.runner.use(runner);
    return runner;
  }

  /** resumeActiveJobs sees only these jobs (other tests' jobs in the same table are not its business). */
  const onlyJobs = (...ids: number[]): LocalJobStore => ({
    listActiveJobs: async () => (await t.stack.dependencies.jobs.listActive()).filter((j) => ids.includes(j.jobId)),
    getJob: (accountId, jobId) => t.stack.dependencies.jobs.get(accountId, jobId),
  });

  async function customer(plan: PlanName = 'pro') {
    const { accountId, api } = await t.newAccount({ plan });
    const product = await api.post('/products', { name: 'Glow serum' });
    expect(product.status).toBe(201);
    return { accountId, api, productId: product.body.data.id as number };
  }

  /** Polls the record (no HTTP: the rate limit stays out of it) until the job is in one of `statuses`. */
  async function waitForStatus(accountId: number, jobId: number, statuses: JobStatus[], timeoutMs = 120_000): Promise<StoredJob> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const job = await t.stack.dependencies.jobs.get(accountId, jobId);
      if (job && statuses.includes(job.status)) return job;
      if (Date.now() > until) throw new Error(`job ${jobId} never reached ${statuses.join('|')}; last: ${JSON.stringify(job)}\n${runnerLog.slice(-20).join('\n')}`);
      await sleep(100);
    }
  }

  const usageNow = (accountId: number) => t.stack.dependencies.ledger.periodUsage(accountId, billingPeriodOf(new Date()).id);

  test('a crash right after Finalize charged the unit, before the job is done: the restart finishes it without a second charge', async () => {
    const { accountId, api, productId } = await customer();
    let crashed!: () => void;
    const crashedAt = new Promise<void>((r) => (crashed = r));
    let first = true;
    const doomed = installRunner({
      stopGraceMs: 200,
      wrapStep: async (payload, call) => {
        if (payload.step !== 'finalize' || !first) return call();
        first = false;
        // Finalize as far as its charge, with the step's own functions; then the process is gone.
        const job = await t.stack.dependencies.jobs.get(payload.account_id, payload.job_id);
        const deps = t.stack.dependencies;
        await chargeCurrentRound(deps, await enterStep(deps, job!, 'finalize', 'finalizing'));
        crashed();
        return new Promise(() => undefined);
      },
    });
    const created = await api.post('/videos', autoJob(productId));
    expect(created.status).toBe(202);
    const jobId = created.body.data.id as number;
    if (!(await within(crashedAt, 120_000))) throw new Error('Finalize was never reached');
    await doomed.stop();

    const leftOver = await t.stack.dependencies.jobs.get(accountId, jobId);
    expect(leftOver).toMatchObject({ status: 'processing', stage: 'finalizing', resume_at: JOB_STATE.Finalize, video_id: null });
    expect(await usageNow(accountId)).toEqual({ used: 1, reserved: 0 });
    expect(await t.stack.dependencies.ledger.entry({ accountId, jobId, chargeNumber: 1 })).toMatchObject({ state: 'charged' });
    const chargedAt = (await allowanceEntry(accountId, jobId))?.settled_at;

    const restarted = installRunner({ store: onlyJobs(jobId) });
    await expect(restarted.resumeActiveJobs()).resolves.toBe(1);
    await waitForStatus(accountId, jobId, ['done', 'failed']);

    const job = (await api.get(`/videos/jobs/${jobId}`)).body.data;
    expect(job).toMatchObject({ status: 'done', charged_units: 1, error: null, video_id: expect.any(Number) });
    expect(await allowanceOf(api)).toMatchObject({ used: 1, reserved: 0 });
    const entry = await allowanceEntry(accountId, jobId);
    expect(entry).toMatchObject({ state: 'charged', settled_at: chargedAt });
    expect((await api.get('/videos')).body.meta.total).toBe(1);
    expect(await listKeys(jobObjectPrefix(accountId, jobId))).toEqual([]);
  }, 240_000);

  test('concurrent POST /videos at the allowance edge: 1 accepted, 7 refused, usage never past the plan', async () => {
    const { accountId, api, productId } = await customer('free');
    // Two units already taken (reserved now, used once their jobs finish).
    const earlier: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await api.post('/videos', autoJob(productId));
      expect(res.status).toBe(202);
      earlier.push(res.body.data.id);
    }

    let sampling = true;
    let peak = 0;
    const samples: { used: number; reserved: number }[] = [];
    const sampler = (async () => {
      while (sampling) {
        const u = await usageNow(accountId);
        samples.push(u);
        peak = max(peak, u.used + u.reserved);
        await sleep(20);
      }
    })();

    try {
      const burst = await Promise.all(Array.from({ length: 8 }, () => api.post('/videos', autoJob(productId))));
      const accepted = burst.filter((r) => r.status === 202);
      expect(burst.map((r) => r.status).sort()).toEqual([202, 402, 402, 402, 402, 402, 402, 402]);
      for (const refused of burst.filter((r) => r.status !== 202)) expectError(refused, 402, 'allowance_exhausted');

      const atEdge = await allowanceOf(api);
      expect(atEdge.used + atEdge.reserved).toBe(3);
      expect(atEdge.remaining).toBe(0);

      const jobIds = [...earlier, accepted[0]!.body.data.id as number];
      for (const id of jobIds) expect((await waitForStatus(accountId, id, ['done', 'failed'], 240_000)).status).toBe('done');
    } finally {
      sampling = false;
      await sampler;
    }
    expect(samples.length).toBeGreaterThan(10);
    expect(peak).toBeLessThanOrEqual(3);
    expect(await allowanceOf(api)).toMatchObject({ limit: 3, used: 3, reserved: 0, remaining: 0 });
    expectError(await api.post('/videos', autoJob(productId)), 402, 'allowance_exhausted');
  }, 360_000);

  test('Task retries of charge_preview and finalize after they did their work never charge twice', async () => {
    const calls = new Map<string, number>();
    const runner = installRunner({
      wrapStep: async (payload: StepPayload, call) => {
        const key = `${payload.job_id}/${payload.step}`;
        const n = (calls.get(key) ?? 0) + 1;
        calls.set(key, n);
        const result = await call();
        // The work is done, but the answer is lost: the ASL retries the Task (Job.Retryable).
        if ((payload.step === 'charge_preview' || payload.step === 'finalize') && n === 1) {
          throw namedError('Job.Retryable', 'injected: the step ran, its answer was lost');
        }
        return result;
      },
    });
    const auto = await customer();
    const preview = await customer();
    const autoId = (await auto.api.post('/videos', autoJob(auto.productId))).body.data.id as number;
    const previewId = (await preview.api.post('/videos', previewJob(preview.productId))).body.data.id as number;

    expect((await waitForStatus(auto.accountId, autoId, ['done', 'failed'])).status).toBe('done');
    expect((await waitForStatus(preview.accountId, previewId, ['preview_ready', 'failed'])).status).toBe('preview_ready');
    expect(await allowanceOf(preview.api)).toMatchObject({ used: 1, reserved: 0 });
    expect((await preview.api.get(`/videos/jobs/${previewId}`)).body.data).toMatchObject({ status: 'preview_ready', charged_units: 1 });

    expect((await preview.api.post(`/videos/jobs/${previewId}/approve`, {})).status).toBe(202);
    expect((await waitForStatus(preview.accountId, previewId, ['done', 'failed'])).status).toBe('done');
    // Finalize's retry comes after the job already shows done.
    await runner.idle();

    expect(calls.get(`${autoId}/finalize`)).toBe(2);
    expect(calls.get(`${previewId}/charge_preview`)).toBe(2);
    expect(calls.get(`${previewId}/finalize`)).toBe(2);
    for (const { accountId, api, jobId } of [
      { ...auto, jobId: autoId },
      { ...preview, jobId: previewId },
    ]) {
      expect(await allowanceOf(api)).toMatchObject({ used: 1, reserved: 0 });
      expect((await api.get(`/videos/jobs/${jobId}`)).body.data).toMatchObject({ status: 'done', charged_units: 1, error: null });
      expect(await t.stack.dependencies.ledger.entry({ accountId, jobId, chargeNumber: 1 })).toMatchObject({ state: 'charged' });
      expect(await t.stack.dependencies.ledger.entry({ accountId, jobId, chargeNumber: 2 })).toBeUndefined();
      expect((await api.get('/videos')).body.meta.total).toBe(1);
    }
  }, 300_000);

  test('a generation that fails releases the reservation and leaves no object behind', async () => {
    const message = 'No usable face was found in the avatar; upload a clear, front-facing photo';
    const failing: ReactionEngine = {
      name: 'failing-double',
      reactionFromPrompt: async () => {
        throw new EngineError('invalid_input', message);
      },
      reactionFromMotion: async () => {
        throw new EngineError('invalid_input', message);
      },
    };
    reactionDouble = failing;
    const { accountId, api, productId } = await customer();
    const created = await api.post('/videos', autoJob(productId));
    expect(created.status).toBe(202);
    const jobId = created.body.data.id as number;
    expect(await allowanceOf(api)).toMatchObject({ used: 0, reserved: 1 });

    await waitForStatus(accountId, jobId, ['failed', 'done']);
    const job = (await api.get(`/videos/jobs/${jobId}`)).body.data;
    expect(job).toMatchObject({ status: 'failed', stage: 'failed', charged_units: 0, video_id: null, error: { code: 'invalid_input', message } });
    expect(await allowanceOf(api)).toMatchObject({ used: 0, reserved: 0 });
    expect(await t.stack.dependencies.ledger.entry({ accountId, jobId, chargeNumber: 1 })).toMatchObject({ state: 'released' });
    expect(await listKeys(jobObjectPrefix(accountId, jobId))).toEqual([]);
    expect((await api.get('/videos')).body.meta.total).toBe(0);
  }, 120_000);

  test('a GenerateReaction past its TimeoutSeconds fails the job with a timeout and releases the unit', async () => {
    // A copy of the real ASL with a 5 s GenerateReaction; the runner takes any definition file. Not 1 s:
    // under CI load the step's work before the engine call (reading the job and its inputs) once took
    // longer, so the Task ended before the engine was reached and had no generation to stop.
    const definition = JSON.parse(readFileSync(join(ROOT, JOB_STATE_MACHINE_FILE), 'utf8'));
    definition.States.GenerateReaction.TimeoutSeconds = 5;
    const definitionPath = join(scratch, 'short-generate.asl.json');
    writeFileSync(definitionPath, JSON.stringify(definition));

    let seenSignal: AbortSignal | undefined;
    const never: ReactionEngine = {
      name: 'never-double',
      reactionFromPrompt: (_avatar, _prompt, options) => {
        seenSignal = options.signal;
        return new Promise(() => undefined);
      },
      reactionFromMotion: () => new Promise(() => undefined),
    };
    reactionDouble = never;
    installRunner({ definitionPath, stopGraceMs: 100 });

    const { accountId, api, productId } = await customer();
    const created = await api.post('/videos', autoJob(productId));
    expect(created.status).toBe(202);
    const jobId = created.body.data.id as number;

    const failed = await waitForStatus(accountId, jobId, ['failed', 'done'], 60_000);
    expect(failed.status).toBe('failed');
    // GenerateReaction's own Catch for States.Timeout names the step that ran out of time.
    expect(failed.error?.code).toBe('generation_timeout');
    expect(failed.error?.message).toBe(JOB_ERROR_CODES[failed.error!.code]);
    expect(seenSignal).toBeDefined();
    expect(seenSignal!.aborted).toBe(true);
    expect(await allowanceOf(api)).toMatchObject({ used: 0, reserved: 0 });
    expect(await listKeys(jobObjectPrefix(accountId, jobId))).toEqual([]);
    expect(existsSync(definitionPath)).toBe(true);
  }, 120_000);
  test('deleting the product while its reaction is being generated stops the generation and fails the job with input_deleted', async () => {
    // An engine that only ends when it is aborted: without the input watch the job would wait for the Task timeout.
    let seenSignal: AbortSignal | undefined;
    const untilAborted: ReactionEngine = {
      name: 'until-aborted-double',
      reactionFromPrompt: (_avatar, _prompt, options) => {
        seenSignal = options.signal;
        return new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      },
      reactionFromMotion: () => new Promise(() => undefined),
    };
    reactionDouble = untilAborted;
    installRunner({ stopGraceMs: 100 });

    const { accountId, api, productId } = await customer();
    const created = await api.post('/videos', autoJob(productId));
    expect(created.status).toBe(202);
    const jobId = created.body.data.id as number;
    await waitForStatus(accountId, jobId, ['processing'], 60_000);
    while (!seenSignal) await new Promise((r) => setTimeout(r, 50));
    expect((await api.delete(`/products/${productId}`)).status).toBe(200);

    const failed = await waitForStatus(accountId, jobId, ['failed', 'done'], 60_000);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'input_deleted', message: expect.stringContaining(`Product ${productId}`) } });
    expect(seenSignal.aborted).toBe(true);
    expect(await allowanceOf(api)).toMatchObject({ used: 0, reserved: 0 });
    expect(await listKeys(jobObjectPrefix(accountId, jobId))).toEqual([]);
  }, 120_000);
});
