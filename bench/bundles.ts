/**
 * Lambda bundles: each handler group and each worker is bundled with the options the stack deploys
 * (lib/cloud/bundling.ts), weighed, and loaded cold: `require()` of the bundle timed in fresh Node
 * processes, the part of a Lambda cold start that the code decides.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { lambdaEsbuildOptions } from '#cloud/bundling';
import { MCP_FUNCTION } from '#cloud/mcp-endpoint';
import { HANDLER_GROUPS } from '#functions/routes';
import { WORKERS } from '#cloud/workers';
import { fmt, median, type SectionResult, type Target, type SectionOptions } from './report';

/**
 * The size target is for what our code and its other dependencies add: each bundle also carries the
 * AWS SDK it uses (lib/cloud/bundling.ts), shown beside it. Cold init is timed on the whole bundle.
 */
const BUNDLE_TARGETS = { sizeKb: 300, initMedianMs: 150 } as const;

/** The AWS SDK v3 and what only it brings (Smithy, its hashing, XML and endpoint-cache packages, the invoke store). */
const AWS_SDK = /^@aws-sdk\/|^@aws\/|^@smithy\/|^@aws-crypto\/|^fast-xml-parser$|^strnum$|^bowser$|^mnemonist$|^obliterator$/;

/** `initRuns`: fresh processes per bundle for the cold-init timing. */
export const BUNDLE_DEFAULTS = { initRuns: 7 } as const;
export type BundleOptions = SectionOptions<typeof BUNDLE_DEFAULTS>;

const ROOT = resolve(__dirname, '..');
const OUT_DIR = join(ROOT, '.bench', 'bundles');

/**
 * Module scope runs with the variables Lambda gives the function. Dummy values: module scope must
 * not need real ones, nor the network (checked below).
 */
const LAMBDA_ENV = {
  TABLE_NAME: 'bench-table',
  BUCKET_NAME: 'bench-bucket',
  AWS_REGION: 'us-east-1',
  POWERTOOLS_SERVICE_NAME: 'reaction-studio',
};

interface BundleTarget {
  name: string;
  kind: 'api' | 'worker';
  entry: string;
  /** Native modules come from a layer, so the bundle leaves them out (and cold init loads them from node_modules). */
  native: boolean;
  /** Packages the bundle gets a stand-in for (FunctionNeeds.absent). */
  absent?: readonly string[];
}

interface BundleFigures extends BundleTarget {
  file: string;
  sizeKb: number;
  /** KB in the output per package (or `(project)` for our own code), largest first. */
  byPackage: [string, number][];
  initMs: number[];
  initMedianMs: number;
  initMaxMs: number;
  exportsHandler: boolean;
  networkAtRequire: string[];
}

function bundleTargets(): BundleTarget[] {
  return [
    ...Object.entries(HANDLER_GROUPS).map(([name, needs]) => ({ name, kind: 'api' as const, entry: needs.entry, native: 'native' in needs && needs.native })),
    ...Object.entries(WORKERS).map(([name, needs]) => ({ name, kind: 'worker' as const, entry: needs.entry, native: 'native' in needs && needs.native })),
    { name: 'mcp', kind: 'api' as const, entry: MCP_FUNCTION.entry, native: false, absent: MCP_FUNCTION.absent },
  ];
}

export async function runBundles(options: BundleOptions): Promise<SectionResult> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const figures: BundleFigures[] = [];
  for (const target of bundleTargets()) {
    const built = await bundle(target);
    options.log(`bundled ${target.kind} ${target.name}: ${fmt(built.sizeKb)} KB; timing ${options.initRuns} cold loads`);
    const initMs: number[] = [];
    for (let i = 0; i < options.initRuns; i++) initMs.push(coldRequire(built.file).ms);
    // A separate run watches the network: its hooks load modules the timed runs must load themselves.
    const watched = coldRequire(built.file, { watchNetwork: true });
    figures.push({
      ...target,
      ...built,
      initMs,
      initMedianMs: median(initMs),
      initMaxMs: Math.max(...initMs),
      exportsHandler: watched.exportsHandler,
      networkAtRequire: watched.network,
    });
  }
  return summarise(figures, options);
}

async function bundle(target: BundleTarget): Promise<Pick<BundleFigures, 'file' | 'sizeKb' | 'byPackage'>> {
  // NodejsFunction writes index.js into an asset folder; one folder per function here too.
  const file = join(OUT_DIR, `${target.kind}-${target.name}`, 'index.js');
  const result = await build({ ...lambdaEsbuildOptions(join(ROOT, target.entry), file, { native: target.native, absent: target.absent }), metafile: true });
  writeFileSync(join(OUT_DIR, `${target.kind}-${target.name}.meta.json`), JSON.stringify(result.metafile));
  return { file, sizeKb: statSync(file).size / 1024, byPackage: byPackage(result.metafile, file) };
}

/** Output bytes grouped by the npm package they come from, in KB. */
function byPackage(metafile: Metafile, file: string): [string, number][] {
  const output = metafile.outputs[relative(process.cwd(), file)] ?? Object.values(metafile.outputs)[0];
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const name = packageOf(input);
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput / 1024);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}

/**
 * The SDK's default credential provider chain (SSO, STS, ini files, IMDS...), which every client
 * pulls in; on Lambda only the environment variables provider is ever used.
 */
const CREDENTIAL_CHAIN = /^@aws-sdk\/(nested-clients|credential-provider-(?!env$).*|token-providers)$|^@smithy\/credential-provider-imds$/;

function packageOf(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return '(project)';
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * Code run by a fresh `node -e`: times the require, or (watchNetwork) hooks socket connects and DNS
 * lookups first and reports any that module scope started, synchronously or within 200 ms.
 */
const COLD_SCRIPT = `
const file = process.argv[1];
const watch = process.argv[2] === 'watch';
const network = [];
if (watch) {
  const net = require('node:net');
  const dns = require('node:dns');
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (...args) {
    const o = Array.isArray(args[0]) ? args[0][0] : args[0];
    network.push('connect ' + (o && typeof o === 'object' ? (o.host || o.path || '') + ':' + (o.port || '') : String(o)));
    return connect.apply(this, args);
  };
  for (const target of [dns, dns.promises]) {
    const lookup = target.lookup;
    target.lookup = function (...args) { network.push('dns ' + args[0]); return lookup.apply(this, args); };
  }
}
const started = process.hrtime.bigint();
const loaded = require(file);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const report = () => {
  process.stdout.write(JSON.stringify({ ms, exportsHandler: typeof loaded.handler === 'function', network }));
  process.exit(0);
};
if (watch) setTimeout(report, 200); else report();
`;

function coldRequire(file: string, opts: { watchNetwork?: boolean } = {}): { ms: number; exportsHandler: boolean; network: string[] } {
  // A clean environment: nothing from this process (NODE_OPTIONS, tsx hooks, real credentials).
  const out = spawnSync(process.execPath, ['-e', COLD_SCRIPT, file, opts.watchNetwork ? 'watch' : 'time'], {
    env: { PATH: process.env.PATH ?? '', ...LAMBDA_ENV },
    cwd: OUT_DIR,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (out.status !== 0) {
    throw new Error(`cold require of ${relative(ROOT, file)} failed (status ${out.status}): ${out.stderr || out.error}`);
  }
  return JSON.parse(out.stdout) as { ms: number; exportsHandler: boolean; network: string[] };
}

function summarise(figures: BundleFigures[], options: BundleOptions): SectionResult {
  const targets: Target[] = [];
  const notes: string[] = [];
  const judge = (f: BundleFigures, what: string, value: number, max: number, unit: string) => {
    const t: Target = { what: `${f.kind} ${f.name} ${what}`, value, max, unit };
    // The targets are for the API functions; a worker's figures are shown, flagged in brackets, not counted.
    if (f.kind === 'api') targets.push(t);
    const verdict = value <= max ? 'PASS' : 'MISS';
    return f.kind === 'api' ? verdict : `(${verdict})`;
  };
  const sdkKb = (f: BundleFigures) => f.byPackage.filter(([name]) => AWS_SDK.test(name)).reduce((sum, [, kb]) => sum + kb, 0);
  const rows = figures.map((f) => [
    `${f.name} (${f.kind})`,
    fmt(f.sizeKb),
    fmt(sdkKb(f)),
    fmt(f.sizeKb - sdkKb(f)),
    judge(f, 'bundle size without the AWS SDK', f.sizeKb - sdkKb(f), BUNDLE_TARGETS.sizeKb, 'KB'),
    fmt(f.initMedianMs),
    fmt(f.initMaxMs),
    judge(f, 'cold init median', f.initMedianMs, BUNDLE_TARGETS.initMedianMs, 'ms'),
  ]);
  for (const f of figures) {
    const top = f.byPackage.slice(0, 4).map(([name, kb]) => `${name} ${fmt(kb)} KB`);
    const chain = f.byPackage.filter(([name]) => CREDENTIAL_CHAIN.test(name)).reduce((sum, [, kb]) => sum + kb, 0);
    notes.push(`${f.name}: largest parts: ${top.join(', ')}; AWS default credential chain ${fmt(chain)} KB`);
    if (!f.exportsHandler) notes.push(`${f.name}: the bundle exports no \`handler\` function`);
    if (f.networkAtRequire.length) notes.push(`${f.name}: NETWORK AT REQUIRE TIME: ${f.networkAtRequire.join('; ')}`);
  }
  notes.push(
    `cold init = require() of the bundle in a fresh Node ${process.version} process (${options.initRuns} runs each), ` +
      `without process start-up; bundles and esbuild metafiles in ${relative(ROOT, OUT_DIR)}/`,
  );
  const network = figures.filter((f) => f.networkAtRequire.length).map((f) => f.name);
  // No target for it, but a network call at require time is a defect, so it counts as a miss.
  targets.push({ what: 'bundles making network calls at require time', value: network.length, max: 0, unit: '' });
  return {
    tables: [
      {
        title: `targets: size without the AWS SDK <= ${BUNDLE_TARGETS.sizeKb} KB, cold init median (whole bundle) <= ${BUNDLE_TARGETS.initMedianMs} ms (API functions)`,
        head: ['bundle', 'size KB', 'AWS SDK KB', 'rest KB', 'flag', 'init p50 ms', 'init max ms', 'flag'],
        rows,
      },
    ],
    targets,
    notes,
    data: {
      bundles: figures.map(({ file, byPackage: parts, ...rest }) => ({
        ...rest,
        file: relative(ROOT, file),
        largestParts: parts.slice(0, 8),
      })),
    },
  };
}
