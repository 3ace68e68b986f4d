/**
 * A variant batch on the local stack, as a marketer tries hooks: one saved reaction replayed under 20
 * hooks, submitted as one POST /videos/batch (auto jobs, 4 s reaction + hook, joined to a 15 s demo).
 * Each variant renders no reaction: its compose encodes the captioned segment and joins the demo by
 * stream copy.
 *
 * - Submission: the batch's POST → 202 (every check, one transaction for 20 jobs and 20 units, 20
 *   executions started).
 * - Completion: POST sent → first poll that sees `done`, per job, in variant order; first / median /
 *   last, and finished videos per minute over the last.
 * - CPU: every process of the stack from /proc (bench/proc-tree-cpu.ts), as in the burst section.
 *
 * The stack runs with its own runner, as `npm start` does: the render slots are the real ones.
 */
import { cpus } from 'node:os';
import { flag, fmt, type SectionResult, type Table, type Target, type SectionOptions } from './report';
import { snapshotTreeCpu, treeCpuBetween } from './proc-tree-cpu';
import { productWithDemo, type ApiCall } from './stack-client';
import { benchAccount, onLocalStack } from './local-stack';
import { completionFigures, completionNote, cpuTable, doneRows, labelOf, reapedLabel, type StackRun } from './burst';

export const BATCH_DEFAULTS = { variants: 20, demoS: 15, pollMs: 250 } as const;
export type BatchOptions = SectionOptions<typeof BATCH_DEFAULTS>;
const BATCH_TARGETS = {
  /** Checks, one transaction and 20 starts: well inside API Gateway's 30 s, and what a client waits for. */
  submitS: 1,
  /** As the burst's: finished videos stream out from the first seconds, not all at the end. */
  firstOverLast: 0.25,
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runBatch(options: BatchOptions): Promise<SectionResult> {
  const { log } = options;
  return onLocalStack('batch', {}, async ({ stack, dir }) => {
    const { accountId, call } = await benchAccount(stack, 'bench-batch', 'business');
    const { productId } = await productWithDemo(call, () => stack.tasks.idle(), dir, options.demoS);

    /** Polls the jobs' records until every one is at `status`: each one's seconds from t0, in the given order. */
    const doneTimes = async (ids: number[], t0: number, status = 'done'): Promise<number[]> => {
      const doneAt = new Map<number, number>();
      while (doneAt.size < ids.length) {
        await sleep(options.pollMs);
        for (const id of ids) {
          if (doneAt.has(id)) continue;
          const job = await stack.dependencies.jobs.get(accountId, id);
          if (job?.status === 'failed') throw new Error(`job ${id} failed: ${JSON.stringify(job.error)}`);
          if (job?.status === status) doneAt.set(id, performance.now());
        }
      }
      return ids.map((id) => (doneAt.get(id)! - t0) / 1000);
    };

    // The saved reaction: one prompt preview (which also loads the engine), saved to the library.
    const source = await accepted(call, '/videos', { product_id: productId, method: 'prompt', mode: 'preview', prompt: 'OMG no way, shocked by the price' });
    await doneTimes([source.id], performance.now(), 'preview_ready');
    const saved = await call('POST', '/reactions', { job_id: source.id });
    if (saved.status !== 201) throw new Error(`POST /reactions answered ${saved.status}: ${JSON.stringify(saved.body)}`);
    const reactionId = saved.body.data.id as number;
    const hook = (i: number) => `POV: hook number ${i + 1} for the serum 😱`;

    // One reuse job alone, the same work as one variant, for comparison.
    const singleT0 = performance.now();
    const single = await accepted(call, '/videos', { product_id: productId, method: 'reuse', reaction_id: reactionId, hook_text: hook(99) });
    const [singleS] = await doneTimes([single.id], singleT0);
    log(`one reuse job alone POST→done: ${fmt(singleS!, 2)} s`);

    const before = snapshotTreeCpu(labelOf, reapedLabel);
    const t0 = performance.now();
    const batch = await accepted(call, '/videos/batch', {
      product_id: productId,
      variants: Array.from({ length: options.variants }, (_, i) => ({ method: 'reuse', reaction_id: reactionId, hook_text: hook(i) })),
    });
    const submitS = (performance.now() - t0) / 1000;
    const ids = (batch.jobs as { id: number }[]).map((job) => job.id);
    const completions = await doneTimes(ids, t0);
    const wallS = (performance.now() - t0) / 1000;
    const after = snapshotTreeCpu(labelOf, reapedLabel);
    const shares = treeCpuBetween(before, after);
    const stackCpuS = shares.reduce((sum, s) => sum + s.cpuS, 0);
    log(`batch of ${options.variants}: 202 in ${fmt(submitS, 2)} s; done at ${completions.map((s) => fmt(s, 1)).join(', ')} s (variant order)`);

    const view = await call('GET', `/videos/batches/${batch.id}`);
    const usage = await call('GET', '/usage');
    return summarise({ submitS, completions, singleS: singleS!, wallS, stackCpuS, shares, cores: cpus().length, counts: view.body?.data?.counts, allowance: usage.body?.data?.allowance }, options);
  });
}

async function accepted(call: ApiCall, path: string, body: unknown): Promise<any> {
  const res = await call('POST', path, body);
  if (res.status !== 202) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

interface Measured extends StackRun {
  submitS: number;
  /** Variant order. */
  completions: number[];
  singleS: number;
  counts: Record<string, number> | undefined;
  allowance: { used: number; reserved: number } | undefined;
}

function summarise(m: Measured, o: BatchOptions): SectionResult {
  const figures = completionFigures(m.completions, m);
  const { first, last, perMinute, perVideo, busy, inversions } = figures;
  const targets: Target[] = [
    { what: 'batch: POST /videos/batch → 202 (20 variants)', value: m.submitS, max: BATCH_TARGETS.submitS, unit: 's' },
    { what: 'batch: first ÷ last completion', value: first / last, max: BATCH_TARGETS.firstOverLast, unit: '' },
  ];
  const [submitT, firstT] = targets as [Target, Target];
  const judged: Table = {
    title: `batch: ${m.completions.length} reuse variants (one saved reaction, ${m.completions.length} hooks, ${o.demoS} s demo) in one POST, ${m.cores} cores`,
    head: ['figure', 'value', 'target', 'flag'],
    rows: [
      ['POST /videos/batch → 202 (s)', fmt(m.submitS, 2), `<= ${BATCH_TARGETS.submitS}`, flag(submitT)],
      ...doneRows(figures),
      ['first ÷ last', fmt(first / last, 2), `<= ${BATCH_TARGETS.firstOverLast}`, flag(firstT)],
      ['finished videos per minute', fmt(perMinute, 1), '', ''],
      ['cores kept busy by the stack', `${fmt(busy * 100, 0)} %`, '', ''],
      ['CPU seconds per video (stack, ffmpeg included)', fmt(perVideo, 2), '', ''],
      ['finished videos per minute if the stack had every core', fmt((m.cores * 60) / perVideo, 1), '', ''],
      ['variants finishing before an earlier one (pairs)', String(inversions), '', ''],
      ['one reuse job alone POST→done (s)', fmt(m.singleS, 2), '', ''],
    ],
  };
  const where = cpuTable('the batch', m, m.completions.length);
  return {
    tables: [judged, where],
    targets,
    notes: [
      completionNote(o.pollMs),
      `batch view after the run: ${JSON.stringify(m.counts ?? {})}; usage: used ${m.allowance?.used ?? '?'}, reserved ${m.allowance?.reserved ?? '?'} (the source preview and the single job included)`,
    ],
    data: { options: { ...o, log: undefined }, submitS: m.submitS, completionsS: m.completions, singleS: m.singleS, wallS: m.wallS, stackCpuS: m.stackCpuS, shares: m.shares, perMinute, perVideo, busy },
  };
}
