/**
 * The real ASL's timeouts, scaled down, run by aws-local-stepfunctions through the local runner with
 * the real bookkeeping steps (prepare, charge_preview, await_decision, mark_failed, and the
 * execution-ended step) over the in-memory stores; the render steps are stand-ins. Every
 * TimeoutSeconds of the file, the execution's included, is divided by SCALE (30 days become 3 s) and
 * rounded up to a whole second, as ASL requires. Shown: the one preview deadline ends the job
 * failed/preview_expired at the first preview's deadline though it was regenerated meanwhile, and the
 * execution's TimeoutSeconds ends a job failed/timeout with its unit released. (Rounding every Task up
 * to 1 s makes the scaled machine's worst case longer than its scaled execution timeout, which is what
 * lets the second test reach it; the unscaled file keeps the timeout above the worst case, checked in
 * test/functions/pipeline/job-definition.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { executionInputOf } from '#domain/job-execution';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { createLocalJobRunner, type LocalJobRunner } from '#local/job-runner';
import { localPipeline } from '#local/pipeline-steps';
import { JOB_STATE_MACHINE_FILE, PIPELINE_FUNCTIONS, STATE_OF_STEP, type StepPayload } from '#pipeline/steps';
import { ACCOUNT, ALLOWANCE, pipelineWorld } from '#test-support/pipeline';
const { ceil, max, random } = Math;

const ROOT = resolve(__dirname, '..', '..', '..');
const readDefinition = () => JSON.parse(readFileSync(resolve(ROOT, JOB_STATE_MACHINE_FILE), 'utf8'));
// The execution's TimeoutSeconds becomes 4 s, whatever the file says: the second test's job needs
// longer than that (eight 0.6 s attempts) and less than twice it. 30 days become 3 s.
const SCALE = 864_000;
const EXECUTION_S = 4;
const scaled = (seconds: number) => max(1, ceil(seconds / SCALE));
const RENDER_STEPS = new Set(['generate_reaction', 'render_preview', 'compose']);

let dir: string;
let runner: LocalJobRunner | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scaled-asl-'));
  // Each function's module loads on its first step, which takes seconds on a busy machine: loaded
  // here, it cannot use up the second between the scaled first preview's deadline and execution timeout.
  await Promise.all(Object.values(PIPELINE_FUNCTIONS).map(({ entry }) => import(resolve(ROOT, entry))));
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));


/** The ASL file with every TimeoutSeconds scaled (TimeoutSecondsPath is fed by ChargePreview, from the scaled preview wait). */
function scaledDefinition(): string {
  const definition = readDefinition();
  definition.TimeoutSeconds = EXECUTION_S;
  for (const state of Object.values(definition.States) as { TimeoutSeconds?: number }[]) {
    if (state.TimeoutSeconds !== undefined) state.TimeoutSeconds = scaled(state.TimeoutSeconds);
  }
  const file = join(dir, `scaled-${random().toString(36).slice(2)}.asl.json`);
  writeFileSync(file, JSON.stringify(definition));
  return file;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(25);
  }
}

/**
 * A world on the real clock (the runner's timers are real), which `skip` moves on for the stores alone;
 * its runner on the scaled file, render steps answering `render`. `expiries` are AwaitDecision's
 * answers (the expiry each round's wait ends at, unless a decision comes first), `lines` the runner's log.
 */
function scaledWorld(render: (payload: StepPayload) => Promise<unknown> = async () => null) {
  let aheadMs = 0;
  const w = pipelineWorld({ now: () => new Date(Date.now() + aheadMs), previewWaitS: scaled(PREVIEW_WAIT_MAX_S) });
  const expiries: string[] = [];
  const lines: string[] = [];
  runner = createLocalJobRunner({
    ...localPipeline(() => w.deps),
    definitionPath: scaledDefinition(),
    retryIntervalOverrides: 0,
    log: (line) => lines.push(line),
    wrapStep: async (payload, call) => {
      if (RENDER_STEPS.has(payload.step)) {
        const answer = await render(payload);
        // GenerateReaction's answer is read (IsGenerated): these renders wait on no provider.
        return payload.step === 'generate_reaction' ? { awaiting_provider: false } : answer;
      }
      const answer = await call();
      if (payload.step === 'await_decision') expiries.push((answer as { expires_at: string }).expires_at);
      return answer;
    },
  });
  const job = (id: number) => w.jobs.get(ACCOUNT, id);
  return { w, runner, job, expiries, lines, skip: (ms: number) => (aheadMs += ms) };
}

describe('the ASL with its timeouts scaled by 1/864000 (30 days: 3 s)', () => {
  test('a regenerated preview still expires at the first preview deadline: failed, preview_expired, no unit left reserved', async () => {
    const { w, runner: r, job, expiries, skip } = scaledWorld();
    const created = await w.queuedJob({ mode: 'preview' });
    await r.start(executionInputOf(created));
    const ready = await until(() => job(created.id), (j) => j?.status === 'preview_ready');

    // What regenerate writes (the round and its unit together) a second into the wait, then its decision handed over.
    skip(1000);
    const moved = await w.jobs.startRound(
      ACCOUNT,
      created.id,
      { status: 'queued', stage: 'queued', regenerations: 1, preview: null, preview_expires_at: null, task_token: null, resume_at: STATE_OF_STEP.generate_reaction },
      { statusIn: ['preview_ready'], taskToken: ready!.task_token! },
      { ref: { accountId: ACCOUNT, jobId: created.id, chargeNumber: 2 }, period: w.period(), limit: ALLOWANCE },
      w.deps.now(),
    );
    expect(moved).toBe(true);
    await r.sendDecision(ready!.task_token!, { action: 'regenerate', regenerations: 1 });

    const again = await until(() => job(created.id), (j) => j?.status === 'preview_ready' && j.task_token !== ready!.task_token);
    expect(again!.preview_expires_at).toBe(ready!.preview_expires_at);
    const failed = await until(() => job(created.id), (j) => j?.status === 'failed');
    expect(failed).toMatchObject({ error: { code: 'preview_expired' }, task_token: null });
    // Both rounds' waits ended at the first deadline: the second did not start a full wait of its own.
    expect(expiries).toEqual([ready!.preview_expires_at, ready!.preview_expires_at]);
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 2, reserved: 0 });
  }, 30_000);

  test("the execution's TimeoutSeconds ends a job that outruns it: failed with timeout, its unit released", async () => {
    // Each render attempt takes 0.6 s; the first three of each step ask to be retried, the last one
    // succeeds: GenerateReaction then Compose outrun the scaled execution timeout (4 s), no Task times out.
    const attempts = new Map<string, number>();
    const { w, runner: r, job, lines } = scaledWorld(async (payload) => {
      const attempt = (attempts.get(payload.step) ?? 0) + 1;
      attempts.set(payload.step, attempt);
      await sleep(600);
      if (attempt === 4) return null;
      const error = new Error(JSON.stringify({ code: 'generation_failed', message: 'busy' }));
      error.name = 'Job.Retryable';
      throw error;
    });
    const created = await w.queuedJob({ mode: 'auto' });
    await r.start(executionInputOf(created));
    const failed = await until(() => job(created.id), (j) => j?.status === 'failed');
    expect(failed).toMatchObject({ error: { code: 'timeout' }, resume_at: null });
    // The execution's own timer ended it, at its scaled TimeoutSeconds.
    expect(lines.join('\n')).toContain(`execution timed out after ${EXECUTION_S} s`);
    expect(await w.ledger.entry({ accountId: ACCOUNT, jobId: created.id, chargeNumber: 1 })).toMatchObject({ state: 'released' });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 0, reserved: 0 });
    // It timed out in Compose: Finalize never ran.
    expect(attempts.get('compose')).toBeGreaterThan(0);
  }, 30_000);
});
