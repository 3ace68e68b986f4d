/**
 * API latency: the local twin (DynamoDB Local, s3rver, the Lambda handlers behind the local HTTP
 * server) under a steady closed-loop load of authenticated `GET /api/v1/products`.
 *
 * Every request pays what it pays on AWS minus the network: key lookup, the DynamoDB rate-limit
 * counter, the product query. The rate limit stays on, so the load is spread over enough accounts
 * that none of them passes PER_ACCOUNT_BUDGET requests in the run (the limit is 120 a minute).
 */
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { LoadRequest, LoadResult } from './load-client';
import { cpuBetween, snapshotCpu } from './proc-cpu';
import { benchAccount, onLocalStack } from './local-stack';
import { fmt, flag, percentile, type SectionResult, type Table, type Target, type SectionOptions } from './report';

export const API_DEFAULTS = {
  requests: 3000,
  connections: 16,
  warmup: 300,
  /** Requests on one connection after the main run: the latency without queueing. */
  baseline: 200,
  productsPerAccount: 5,
  minAccounts: 40,
} as const;
export type ApiLatencyOptions = SectionOptions<typeof API_DEFAULTS>;

const API_TARGETS = { p99Ms: 25, non200: 0 } as const;

/** Requests one account may take in a run: well under the 120 a rolling minute the API allows. */
const PER_ACCOUNT_BUDGET = 90;
/** Seeding concurrency: enough to be quick, low enough not to queue on DynamoDB Local. */
const SEED_CONCURRENCY = 8;

type Budget = Pick<ApiLatencyOptions, 'requests' | 'warmup' | 'baseline' | 'productsPerAccount' | 'minAccounts'>;

function accountsNeeded(o: Budget): number {
  // +1: the sanity read.
  const perAccountRoom = PER_ACCOUNT_BUDGET - o.productsPerAccount - 1;
  return Math.max(o.minAccounts, Math.ceil((o.requests + o.warmup + o.baseline) / perAccountRoom));
}

/** The most requests any one account takes in the run: every request is spread round-robin. */
function requestsPerAccount(o: Budget, accounts: number): number {
  return Math.ceil((o.requests + o.warmup + o.baseline) / accounts) + o.productsPerAccount + 1;
}

export async function runApiLatency(options: ApiLatencyOptions): Promise<SectionResult> {
  const { log } = options;
  const accounts = accountsNeeded(options);
  const startedAt = Date.now();
  return onLocalStack('api', { log: (line) => log(`stack: ${line}`) }, async ({ stack }) => {
    log(`local stack up in ${Date.now() - startedAt} ms at ${stack.apiUrl}`);
    const productsUrl = `${stack.apiUrl}/products`;

    const seedStarted = Date.now();
    const keys = await pLimit(SEED_CONCURRENCY).map(Array.from({ length: accounts }, (_, i) => i), async (i) => {
      const { key } = await benchAccount(stack, `bench-${i}`, 'pro');
      for (let p = 0; p < options.productsPerAccount; p++) {
        const res = await fetch(productsUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Bench product ${i}.${p}`, description: 'A product the benchmark lists.' }),
        });
        if (res.status !== 201) throw new Error(`seeding a product answered ${res.status}: ${await res.text()}`);
      }
      return key;
    });
    log(`seeded ${accounts} accounts x ${options.productsPerAccount} products in ${Date.now() - seedStarted} ms`);

    // One read to be sure the measured request returns what it should.
    const check = await fetch(productsUrl, { headers: { authorization: `Bearer ${keys[0]}` } });
    const listed = ((await check.json()) as { data?: unknown[] }).data?.length;
    if (check.status !== 200 || listed !== options.productsPerAccount) {
      throw new Error(`sanity read: status ${check.status}, ${listed} products (expected ${options.productsPerAccount})`);
    }

    const base = { url: productsUrl, keys, connections: options.connections };
    log(`warm-up: ${options.warmup} requests`);
    const warm = await loadInChild({ ...base, requests: options.warmup });
    log(`measuring: ${options.requests} requests at ${options.connections} connections`);
    const before = snapshotCpu(labelProcess);
    const run = await loadInChild({ ...base, requests: options.requests, keyOffset: options.warmup });
    const cpu = cpuBetween(before, snapshotCpu(labelProcess));
    log(`baseline: ${options.baseline} requests on 1 connection`);
    const baseline = await loadInChild({
      ...base,
      connections: 1,
      requests: options.baseline,
      keyOffset: options.warmup + options.requests,
    });
    return summarise({ run, warm, baseline, cpu }, { ...options, accounts });
  });
}

interface Measured {
  run: LoadResult;
  warm: LoadResult;
  baseline: LoadResult;
  cpu: ReturnType<typeof cpuBetween>;
}

function labelProcess(pid: number, cmdline: string): string {
  if (pid === process.pid) return 'API server: handlers + local HTTP (Node)';
  if (cmdline.includes('DynamoDBLocal')) return 'DynamoDB Local (Java)';
  if (cmdline.includes('s3rver')) return 's3rver (Node)';
  return cmdline.split(' ')[0]?.split('/').pop() || `pid ${pid}`;
}

function summarise({ run, warm, baseline, cpu }: Measured, o: ApiLatencyOptions & { accounts: number }): SectionResult {
  const sorted = [...run.latenciesMs].sort((a, b) => a - b);
  const baseSorted = [...baseline.latenciesMs].sort((a, b) => a - b);
  const non200 = countNon200(run.statuses);
  const warmNon200 = countNon200(warm.statuses);
  const baseNon200 = countNon200(baseline.statuses);
  const p = (q: number) => percentile(sorted, q);
  const throughput = (run.latenciesMs.length / run.durationMs) * 1000;
  const targets: Target[] = [
    { what: 'API p99 latency', value: p(99), max: API_TARGETS.p99Ms, unit: 'ms' },
    { what: 'API non-200 responses', value: non200, max: API_TARGETS.non200, unit: '' },
  ];
  const [p99Target, non200Target] = targets as [Target, Target];
  const notes = [
    `GET /api/v1/products, ${o.productsPerAccount} products per account; ${o.accounts} accounts, ` +
      `<= ${requestsPerAccount(o, o.accounts)} requests per account in the run (limit 120/min); warm-up ${o.warmup} requests.`,
    `closed loop: with ${o.connections} connections a request waits for the ${o.connections - 1} others, ` +
      `so latency ~ connections / throughput (Little's law); the 1-connection line is the latency without queueing.`,
  ];
  if (baseNon200) notes.push(`baseline had ${baseNon200} non-200 responses: ${JSON.stringify(baseline.statuses)}`);
  if (warmNon200) notes.push(`warm-up had ${warmNon200} non-200 responses: ${JSON.stringify(warm.statuses)}`);
  if (non200) notes.push(`non-200 responses: ${JSON.stringify(run.statuses)}; first: ${run.samples.join(' | ')}`);
  return {
    tables: [
      {
        title: `${run.latenciesMs.length} requests, ${o.connections} connections, ${fmt(run.durationMs / 1000, 2)} s`,
        head: ['figure', 'value', 'target', 'flag'],
        rows: [
          ['p50 latency (ms)', fmt(p(50)), '', ''],
          ['p90 latency (ms)', fmt(p(90)), '', ''],
          ['p99 latency (ms)', fmt(p(99)), `<= ${API_TARGETS.p99Ms}`, flag(p99Target)],
          ['max latency (ms)', fmt(p(100)), '', ''],
          ['throughput (req/s)', fmt(throughput, 0), '', ''],
          ['non-200 responses', String(non200), `= ${API_TARGETS.non200}`, flag(non200Target)],
          ['1 connection: p50 (ms)', fmt(percentile(baseSorted, 50)), '', ''],
          ['1 connection: p99 (ms)', fmt(percentile(baseSorted, 99)), '', ''],
        ],
      },
      cpuTable(cpu, run),
    ],
    targets,
    notes,
    data: {
      requests: run.latenciesMs.length,
      connections: o.connections,
      accounts: o.accounts,
      durationMs: run.durationMs,
      p50Ms: p(50),
      p90Ms: p(90),
      p99Ms: p(99),
      maxMs: p(100),
      throughputRps: throughput,
      statuses: run.statuses,
      baseline: { requests: baseline.latenciesMs.length, p50Ms: percentile(baseSorted, 50), p99Ms: percentile(baseSorted, 99) },
      cpu: { wallS: cpu.wallS, machineBusyS: cpu.machineBusyS, shares: cpu.shares, loadClientS: run.cpuS },
      warmup: { requests: warm.latenciesMs.length, statuses: warm.statuses, p99Ms: percentile([...warm.latenciesMs].sort((a, b) => a - b), 99) },
    },
  };
}

function cpuTable(cpu: Measured['cpu'], run: LoadResult): Table {
  const n = run.latenciesMs.length;
  const row = (label: string, cpuS: number) => [label, fmt(cpuS, 2), fmt(cpuS / cpu.wallS, 2), fmt((cpuS * 1000) / n, 2)];
  const rows = cpu.shares.filter((s) => s.cpuS >= 0.05).map((s) => row(s.label, s.cpuS));
  rows.push(row('load generator (Node)', run.cpuS));
  if (cpu.machineBusyS !== undefined) {
    const ours = cpu.shares.reduce((sum, s) => sum + s.cpuS, run.cpuS);
    rows.push(row('everything else on the machine', Math.max(0, cpu.machineBusyS - ours)));
    rows.push(row(`machine busy (of ${cpus().length} cores)`, cpu.machineBusyS));
  }
  return { title: `CPU during the measured run (${fmt(cpu.wallS, 1)} s)`, head: ['process', 'CPU s', 'cores', 'CPU ms/req'], rows };
}

const countNon200 = (statuses: Record<string, number>) =>
  Object.entries(statuses).reduce((n, [status, count]) => (status === '200' ? n : n + count), 0);

/** Runs the load generator in a child process (same Node, same tsx loader via the inherited execArgv). */
function loadInChild(spec: LoadRequest): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'load-client.ts'), [], {
      env: { ...process.env, BENCH_LOAD_CLIENT: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    child.once('message', (message: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      settled = true;
      if (message.ok) resolve(message.result);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    child.once('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited with ${code} before answering`));
      settled = true;
    });
    child.send(spec);
  });
}

