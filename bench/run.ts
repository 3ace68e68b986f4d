/**
 * `npm run bench [-- --only api|bundles|compose|engine|scale|capacity|job|cost|burst|batch|quality|join|studio|webhooks] [--requests N] [--warmup N] [--connections N] [--init-runs N]`
 *
 * Runs each section, prints a table per section with its targets and a PASS/MISS flag, and keeps the
 * raw figures in .bench/last-run.json. A missed target still exits 0 (a benchmark reports; the tests
 * assert); a section that crashes exits 1.
 *
 * A new section is one more entry in SECTIONS: a name for `--only`, a title, and a `run` returning a
 * SectionResult (bench/report.ts).
 */
// First: it sets the log level before any module makes the service's logger.
import './quiet-logs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_DEFAULTS, runApiLatency } from './api-latency';
import { BUNDLE_DEFAULTS, runBundles } from './bundles';
import { fmt, passes, renderTable, type SectionResult } from './report';

interface Settings {
  requests: number;
  warmup: number;
  connections: number;
  initRuns: number;
}

interface Section {
  name: string;
  title: string;
  run(settings: Settings, log: (line: string) => void): Promise<SectionResult>;
}

const SECTIONS: readonly Section[] = [
  {
    name: 'api',
    title: 'API latency: GET /api/v1/products on the local stack',
    run: (s, log) => runApiLatency({ ...API_DEFAULTS, requests: s.requests, warmup: s.warmup, connections: s.connections, log }),
  },
  {
    name: 'bundles',
    title: 'Lambda bundles: size and cold init',
    run: (s, log) => runBundles({ initRuns: s.initRuns, log }),
  },
  { name: 'compose', title: 'Compose: caption segment + stream-copy join vs a full re-encode', run: (_s, log) => import('./compose').then((m) => m.runCompose({ ...m.COMPOSE_DEFAULTS, log })) },
  { name: 'engine', title: 'Local engine: avatar, and 4 s reactions from a prompt, from motion and of a photo', run: (_s, log) => import('./engine-local').then((m) => m.runEngineLocal({ ...m.ENGINE_LOCAL_DEFAULTS, log })) },
  { name: 'scale', title: 'Scale: list calls at 20, 5,000 and 50,000 products (latency and DynamoDB read units)', run: (_s, log) => import('./scale').then((m) => m.runScale({ ...m.SCALE_DEFAULTS, sizes: [...m.SCALE_DEFAULTS.sizes], log })) },
  { name: 'capacity', title: 'Write capacity: jobs a second before a shared DynamoDB partition key reaches 1,000 WCU/s, per kind of job', run: (_s, log) => import('./capacity').then((m) => m.runCapacity({ ...m.CAPACITY_DEFAULTS, log })) },
  { name: 'job', title: 'Video job: POST /videos to done on the local stack (4 s reaction + 15 s demo)', run: (_s, log) => import('./video-job').then((m) => m.runVideoJob({ ...m.VIDEO_JOB_DEFAULTS, log })) },
  { name: 'cost', title: 'AWS cost of one finished video (no model inference): auto and preview jobs on the local stack, priced', run: (_s, log) => import('./video-cost').then((m) => m.runVideoCost({ ...m.VIDEO_COST_DEFAULTS, log })) },
  { name: 'burst', title: 'Burst: 16 auto jobs POSTed at once on the local stack (completion order, cores busy, CPU per video)', run: (_s, log) => import('./burst').then((m) => m.runBurst({ ...m.BURST_DEFAULTS, log })) },
  { name: 'batch', title: 'Batch: 20 reuse variants (one saved reaction, 20 hooks) in one POST /videos/batch on the local stack', run: (_s, log) => import('./batch').then((m) => m.runBatch({ ...m.BATCH_DEFAULTS, log })) },
  { name: 'webhooks', title: 'Webhooks: from a state change to a receiver on this machine (job done, ping)', run: (_s, log) => import('./webhooks').then((m) => m.runWebhookLatency({ ...m.WEBHOOK_DEFAULTS, log })) },
  { name: 'quality', title: 'Quality: the finished videos’ sound (auto) per method and demo level, what the mix costs the join, and their looks per method', run: (_s, log) => import('./quality').then((m) => m.runQuality({ ...m.QUALITY_DEFAULTS, log })) },
  { name: 'join', title: 'Join: what the sound (mixed, levelled, AAC-encoded, measured) costs the stream-copy join, alone', run: (_s, log) => import('./quality').then((m) => m.runJoinCost({ ...m.JOIN_DEFAULTS, log })) },
  { name: 'studio', title: 'Studio: first-load JavaScript (gzip) and time to a usable page in headless Chromium', run: (_s, log) => import('./studio').then((m) => m.runStudio({ ...m.STUDIO_DEFAULTS, log })) },
];

function parseSettings(): { only: Section[]; settings: Settings } {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'init-runs': { type: 'string' },
    },
    strict: true,
  });
  const names = values.only?.split(',').map((s) => s.trim()) ?? SECTIONS.map((s) => s.name);
  const unknown = names.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`--only: unknown section(s) ${unknown.join(', ')} (known: ${SECTIONS.map((s) => s.name).join(', ')})`);
  const int = (raw: string | undefined, fallback: number, flagName: string) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${flagName} must be a positive integer`);
    return n;
  };
  return {
    only: SECTIONS.filter((s) => names.includes(s.name)),
    settings: {
      requests: int(values.requests, API_DEFAULTS.requests, 'requests'),
      warmup: int(values.warmup, API_DEFAULTS.warmup, 'warmup'),
      connections: int(values.connections, API_DEFAULTS.connections, 'connections'),
      initRuns: int(values['init-runs'], BUNDLE_DEFAULTS.initRuns, 'init-runs'),
    },
  };
}

function machineFacts(): Record<string, string> {
  const cpu = cpus();
  const gb = (bytes: number) => `${fmt(bytes / 1024 ** 3)} GB`;
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: String(cpu.length),
    node: process.version,
    memory: `${gb(totalmem())} (${gb(freemem())} free)`,
    'load avg': loadavg().map((l) => fmt(l, 2)).join(' '),
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(): Promise<number> {
  const { only, settings } = parseSettings();
  const started = Date.now();
  const machine = machineFacts();
  console.log('Reaction Studio benchmarks');
  for (const [k, v] of Object.entries(machine)) console.log(`  ${k.padEnd(9)} ${v}`);

  const record: Record<string, unknown> = { at: new Date().toISOString(), machine, settings, sections: {} };
  const misses: string[] = [];
  const crashed: string[] = [];
  for (const section of only) {
    console.log(`\n== ${section.title} ==`);
    const sectionStarted = Date.now();
    const log = (line: string) => console.log(`  . ${line}`);
    try {
      const result = await section.run(settings, log);
      for (const table of result.tables) console.log(renderTable(table));
      for (const note of result.notes) console.log(`  * ${note}`);
      for (const t of result.targets) {
        const unit = t.unit ? ` ${t.unit}` : '';
        if (!passes(t)) misses.push(`${t.what}: ${fmt(t.value)}${unit} (target <= ${t.max}${unit})`);
      }
      (record.sections as Record<string, unknown>)[section.name] = { ...result.data, targets: result.targets };
      console.log(`  (${fmt((Date.now() - sectionStarted) / 1000)} s)`);
    } catch (error) {
      crashed.push(section.name);
      console.error(`  CRASHED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  console.log(`\n== Summary (${fmt((Date.now() - started) / 1000)} s) ==`);
  if (misses.length === 0 && crashed.length === 0) console.log('  all targets met');
  for (const m of misses) console.log(`  MISS ${m}`);
  for (const c of crashed) console.log(`  CRASHED section ${c}`);
  const dir = resolve(__dirname, '..', '.bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'last-run.json'), JSON.stringify({ ...record, misses, crashed }, null, 2));
  return crashed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
