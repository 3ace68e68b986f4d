/**
 * A burst on the local stack, as a marketer's batch makes one: 16 auto jobs (4 s reaction from a
 * prompt + hook, joined to a 15 s demo) POSTed at once, after one warm-up job and a few single jobs.
 *
 * - Completion: POST sent → first poll that sees `done`, per job; first / median / last and the ratios
 *   to the last say whether the batch streams out finished videos or delivers them all at the end.
 * - CPU: every process of the stack (this Node process with the pipeline, the ffmpeg encodes it ran,
 *   DynamoDB Local, s3rver) from /proc, children that exited included (bench/proc-tree-cpu.ts);
 *   "cores busy" is that CPU over wall × cores, so other tenants' load does not count for us.
 * - Polling: each unfinished job's record every `pollMs` (the read GET /videos/jobs/{id} makes), the
 *   cost of a client watching its batch; the reads are counted and their CPU is in DynamoDB Local's.
 *
 * The stack runs with its own runner, as `npm start` does: the render slots are the real ones.
 */
import { cpus } from 'node:os';
import { flag, fmt, median, type SectionResult, type Table, type Target, type SectionOptions } from './report';
import { snapshotTreeCpu, treeCpuBetween } from './proc-tree-cpu';
import { productWithDemo } from './stack-client';
import { benchAccount, onLocalStack } from './local-stack';

/** `singles`: single jobs measured one at a time before the burst (after a warm-up). */
export const BURST_DEFAULTS = { jobs: 16, singles: 3, demoS: 15, pollMs: 250 } as const;
export type BurstOptions = SectionOptions<typeof BURST_DEFAULTS>;
const BURST_TARGETS = {
  firstOverLast: 0.25,
  medianOverLast: 0.65,
  /** A floor: the bench's targets are ceilings, so it is judged as idle share ≤ 15 %. */
  coresBusyMin: 0.85,
  cpuSPerVideo: 4,
  singlePostToDoneS: 2.5,
} as const;

const PROMPT = 'OMG no way, shocked by the price';
const HOOK = 'POV: you finally found a serum that works 😱';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The stack's processes by name, for the CPU tables (the batch section reads them too). */
export const labelOf = (cmdline: string) => {
  if (cmdline.includes('DynamoDBLocal')) return 'DynamoDB Local (java)';
  if (cmdline.includes('s3rver')) return 's3rver';
  if (/(^|\/)ffmpeg\s/.test(cmdline)) return 'ffmpeg (running)';
  if (cmdline.startsWith('java') || cmdline.includes('/java ')) return 'DynamoDB Local (java)';
  return 'Node: API + pipeline + Skia';
};
export const reapedLabel = (label: string) => (label.startsWith('Node') ? 'ffmpeg (exited children of Node)' : `${label}: exited children`);

/** A run of jobs on the stack as the CPU tables see it (the batch section's too). */
export interface StackRun {
  wallS: number;
  stackCpuS: number;
  shares: { label: string; cpuS: number }[];
  cores: number;
}

/** What the jobs' completions (seconds from their POST, in the order they were submitted) show of the run that made them. */
export function completionFigures(completions: readonly number[], run: StackRun) {
  const sorted = [...completions].sort((a, b) => a - b);
  const last = sorted[sorted.length - 1]!;
  return {
    first: sorted[0]!,
    mid: median(sorted),
    last,
    perMinute: (completions.length / last) * 60,
    perVideo: run.stackCpuS / completions.length,
    busy: run.stackCpuS / (run.wallS * run.cores),
    /** Pairs where a job finished before one submitted earlier. */
    inversions: completions.reduce((n, s, i) => n + completions.slice(i + 1).filter((later) => later < s).length, 0),
  };
}

/** The completions' rows of a section's table: first, median and last done. */
export function doneRows(f: Pick<ReturnType<typeof completionFigures>, 'first' | 'mid' | 'last'>): string[][] {
  return [
    ['first done (s)', fmt(f.first, 1), '', ''],
    ['median done (s)', fmt(f.mid, 1), '', ''],
    ['last done (s)', fmt(f.last, 1), '', ''],
  ];
}

/** How a completion is timed, for a section's notes. */
export const completionNote = (pollMs: number) => `completion = POST sent → first poll (every ${pollMs} ms, the record GET /videos/jobs/{id} reads) that sees done`;

/** Where the run's CPU went, per process of the stack; `what` names the run (`the burst`). */
export function cpuTable(what: string, run: StackRun, videos: number): Table {
  return {
    title: `where ${what}'s CPU went (${fmt(run.stackCpuS, 1)} CPU-s in ${fmt(run.wallS, 1)} s)`,
    head: ['process', 'CPU s', 'per video s', 'share'],
    rows: run.shares.map((s) => [s.label, fmt(s.cpuS, 1), fmt(s.cpuS / videos, 2), `${fmt((s.cpuS / run.stackCpuS) * 100, 0)} %`]),
  };
}

interface Waiting {
  /** Samples of queue_position / stage seen by the polls (the queue made visible). */
  queuedSeen: number;
  maxPosition: number;
}

export async function runBurst(options: BurstOptions): Promise<SectionResult> {
  const { log } = options;
  return onLocalStack('burst', {}, async ({ stack, dir }) => {
    const { accountId, call } = await benchAccount(stack, 'bench-burst', 'business');
    const { productId } = await productWithDemo(call, () => stack.tasks.idle(), dir, options.demoS);

    let polls = 0;
    const waiting: Waiting = { queuedSeen: 0, maxPosition: 0 };
    /** POSTs `n` jobs at once; resolves with each one's POST→done seconds, oldest job first. */
    const submit = async (n: number): Promise<number[]> => {
      const t0 = performance.now();
      const posted = await Promise.all(
        Array.from({ length: n }, () => call('POST', '/videos', { product_id: productId, method: 'prompt', prompt: PROMPT, hook_text: HOOK })),
      );
      const ids = posted.map((p) => {
        if (p.status !== 202) throw new Error(`POST /videos answered ${p.status}: ${JSON.stringify(p.body)}`);
        return p.body.data.id as number;
      });
      const doneAt = new Map<number, number>();
      const createdAt = new Map<number, string>();
      while (doneAt.size < ids.length) {
        await sleep(options.pollMs);
        for (const id of ids) {
          if (doneAt.has(id)) continue;
          const job = await stack.dependencies.jobs.get(accountId, id);
          polls++;
          if (job?.status === 'failed') throw new Error(`job ${id} failed: ${JSON.stringify(job.error)}`);
          if (job?.status === 'done') {
            doneAt.set(id, performance.now());
            createdAt.set(id, job.created_at);
          }
          const position = (job as { queue_position?: number | null } | undefined)?.queue_position;
          if (typeof position === 'number') {
            waiting.queuedSeen++;
            waiting.maxPosition = Math.max(waiting.maxPosition, position);
          }
        }
      }
      // In the runner's order (creation time, then id): concurrent POSTs are created in any order.
      const age = (id: number) => Date.parse(createdAt.get(id)!);
      return [...ids].sort((a, b) => age(a) - age(b) || a - b).map((id) => (doneAt.get(id)! - t0) / 1000);
    };

    const [warmUpS] = await submit(1);
    log(`warm-up job (loads the engine): ${fmt(warmUpS!, 2)} s`);
    const singles: number[] = [];
    for (let i = 0; i < options.singles; i++) singles.push((await submit(1))[0]!);
    log(`single jobs POST→done: ${singles.map((s) => fmt(s, 2)).join(', ')} s`);
    await stack.jobs.idle();

    polls = 0;
    const before = snapshotTreeCpu(labelOf, reapedLabel);
    const t0 = performance.now();
    const burst = await submit(options.jobs);
    const wallS = (performance.now() - t0) / 1000;
    await stack.jobs.idle();
    const after = snapshotTreeCpu(labelOf, reapedLabel);
    const shares = treeCpuBetween(before, after);
    const cores = cpus().length;
    const stackCpuS = shares.reduce((sum, s) => sum + s.cpuS, 0);
    const machineBusyS = after.machineBusyS - before.machineBusyS;
    log(`burst of ${options.jobs}: done at ${burst.map((s) => fmt(s, 1)).join(', ')} s (oldest job first)`);

    const usage = await call('GET', '/usage');
    const allowance = usage.body?.data?.allowance;
    return summarise({ burst, singles, warmUpS: warmUpS!, wallS, stackCpuS, shares, cores, machineBusyS, polls, waiting, allowance }, options);
  });
}

interface Measured extends StackRun {
  burst: number[];
  singles: number[];
  warmUpS: number;
  machineBusyS: number;
  polls: number;
  waiting: Waiting;
  allowance: { used: number; reserved: number } | undefined;
}

function summarise(m: Measured, o: BurstOptions): SectionResult {
  const figures = completionFigures(m.burst, m);
  const { first, mid, last, busy, perVideo, perMinute, inversions } = figures;
  const single = median(m.singles);
  const targets: Target[] = [
    { what: 'burst: first ÷ last completion', value: first / last, max: BURST_TARGETS.firstOverLast, unit: '' },
    { what: 'burst: median ÷ last completion', value: mid / last, max: BURST_TARGETS.medianOverLast, unit: '' },
    { what: 'burst: share of the cores left idle by the stack', value: 1 - busy, max: 1 - BURST_TARGETS.coresBusyMin, unit: '' },
    { what: 'burst: CPU seconds per video (whole stack)', value: perVideo, max: BURST_TARGETS.cpuSPerVideo, unit: 's' },
    { what: 'single auto job POST→done, median', value: single, max: BURST_TARGETS.singlePostToDoneS, unit: 's' },
  ];
  const [firstT, medianT, idleT, cpuT, singleT] = targets as [Target, Target, Target, Target, Target];
  const judged: Table = {
    title: `burst: ${m.burst.length} auto jobs POSTed at once (4 s reaction + hook, ${o.demoS} s demo), ${m.cores} cores`,
    head: ['figure', 'value', 'target', 'flag'],
    rows: [
      ...doneRows(figures),
      ['first ÷ last', fmt(first / last, 2), `<= ${BURST_TARGETS.firstOverLast}`, flag(firstT)],
      ['median ÷ last', fmt(mid / last, 2), `<= ${BURST_TARGETS.medianOverLast}`, flag(medianT)],
      ['cores kept busy by the stack', `${fmt(busy * 100, 0)} %`, `>= ${BURST_TARGETS.coresBusyMin * 100} %`, flag(idleT)],
      ['CPU seconds per video (stack, ffmpeg included)', fmt(perVideo, 2), `<= ${BURST_TARGETS.cpuSPerVideo}`, flag(cpuT)],
      ['finished videos per minute', fmt(perMinute, 1), '', ''],
      ['jobs finishing before an older one (pairs)', String(inversions), '', ''],
      ['single auto job POST→done, median (s)', fmt(single, 2), `<= ${BURST_TARGETS.singlePostToDoneS}`, flag(singleT)],
      ['warm-up job POST→done (s)', fmt(m.warmUpS, 2), '', ''],
    ],
  };
  const where = cpuTable('the burst', m, m.burst.length);
  return {
    tables: [judged, where],
    targets,
    notes: [
      `${completionNote(o.pollMs)}; ${m.polls} polls during the burst (their DynamoDB CPU is in the table above)`,
      `the machine was ${fmt((m.machineBusyS / (m.wallS * m.cores)) * 100, 0)} % busy in all (other tenants included) during the burst`,
      m.waiting.queuedSeen > 0
        ? `polls that saw a queue_position: ${m.waiting.queuedSeen} (highest ${m.waiting.maxPosition})`
        : 'no poll saw a queue_position (the job record shows none)',
      `usage after the run: used ${m.allowance?.used ?? '?'}, reserved ${m.allowance?.reserved ?? '?'}`,
    ],
    data: { options: { ...o, log: undefined }, burstS: m.burst, singlesS: m.singles, warmUpS: m.warmUpS, wallS: m.wallS, stackCpuS: m.stackCpuS, shares: m.shares, busy, perVideo, perMinute, polls: m.polls, waiting: m.waiting },
  };
}
