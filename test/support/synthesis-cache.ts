/**
 * Where the template suites' synthesis of the app is kept: node_modules/.cache/reaction-studio-synth/
 * <hash of its inputs>/, holding the cloud assembly (the template and every staged asset) and
 * index.json (what only the construct tree knows: logical ids, cdk-nag's findings). No aws-cdk-lib
 * here: a run whose inputs are unchanged reads the hash and nothing more.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OPENAPI_FILE } from '#functions/openapi/docs-assets';
import type { HandlerGroup } from '#functions/routes';
import { FFMPEG, FFPROBE } from '#render';
import type { WorkerName } from '#cloud/workers';
import type { PipelineFunction } from '#pipeline/steps';
import type { Acknowledgement } from './nag-findings';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE_ROOT = path.join(ROOT, 'node_modules', '.cache', 'reaction-studio-synth');

/** Set by the global setup for the workers: the cache entry of this run. */
export const SYNTHESIS_ENV = 'REACTION_STUDIO_SYNTHESIS';
export const STACK_NAME = 'ReactionStudioTest';

/** Logical ids of the constructs the template tests look up, where the stack keeps them. */
export interface LogicalIds {
  /** `table`: the stack's own table; '' when it is pointed at a restored one (no resource of its own). */
  data: { table: string; connectionKey: string };
  media: { bucket: string; accessLogs: string };
  /** `functions`: every function below the construct (CDK's deploy-time key maker). */
  delivery: { distribution: string; signingKey: string; functions: string[] };
  workers: { functions: Record<WorkerName, string>; failedInvocations: string };
  faceCheck: { function: string };
  webhooks: { dispatcher: string; deliverer: string; queue: string; failedDeliveries: string; failedStreamBatches: string };
  liveUpdates: { webSocketApi: string; stage: string; socketFunction: string; pusher: string; failedStreamBatches: string };
  /** `allFunctions`: every function below the construct. */
  jobs: {
    functions: Record<PipelineFunction, string>;
    /** Each pipeline function's `live` alias, which the state machine invokes. */
    aliases: Record<PipelineFunction, string>;
    sweeper: string;
    executionEnded: string;
    executionEndedFailures: string;
    jobStarter: string;
    failedStarts: string;
    stateMachine: string;
    logGroup: string;
    allFunctions: string[];
  };
  api: { functions: Record<HandlerGroup, string>; mcp: string; httpApi: string };
  observability: { alarms: Record<string, string> };
  studio: { distribution: string; bucket: string };
}

export interface NagReport {
  findings: string[];
  acknowledgements: Acknowledgement[];
}

export interface SynthesisIndex {
  logicalIds: LogicalIds;
  nag: NagReport;
}

export const FAL_KEY_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:fal-key-AbCdEf';
export const STRIPE_SECRET_NAME = 'reaction-studio/stripe';

/**
 * The deployments the template tests read besides cdk.json's, as context over it (lib/cloud/engine-config.ts):
 * synthesised with the app (app-synthesis.ts) and kept in its entry.
 */
/** The restored table of the restoredTable variant. */
export const RESTORED_TABLE_NAME = 'ReactionStudio-restored-20261130';

export const VARIANTS = {
  /** Hooks on Bedrock, avatars on fal (test/lib/cloud/engine-config.test.ts). */
  hostedEngines: { hookEngine: 'bedrock', avatarEngine: 'fal', falKeySecretArn: FAL_KEY_SECRET_ARN },
  /** A mail sender named: password-reset links go out through SES (test/lib/cloud/mail.test.ts). */
  mail: { mailFrom: 'no-reply@studio.example.com' },
  /** Paid plans through Stripe (test/lib/cloud/billing-config.test.ts). */
  stripeBilling: { stripeSecret: STRIPE_SECRET_NAME, stripePrices: 'starter=price_s,pro=price_p,business=price_b' },
  /** A bigger render function with a concurrency cap, and concurrency reserved for the API (test/lib/cloud/render-sizing.test.ts). */
  sized: { renderMemoryMb: 10_240, renderConcurrency: 20, apiConcurrency: 10 },
  /** Pointed at a table restored into a new one (test/lib/cloud/restored-table.test.ts). */
  restoredTable: { restoredTableName: RESTORED_TABLE_NAME, restoredTableStreamArn: `arn:aws:dynamodb:us-east-1:123456789012:table/${RESTORED_TABLE_NAME}/stream/2026-11-30T12:00:00.000` },
} satisfies Record<string, Record<string, unknown>>;
export type VariantName = keyof typeof VARIANTS;

export function entryFiles(entry: string) {
  const assembly = path.join(entry, 'assembly');
  return {
    assembly,
    template: path.join(assembly, `${STACK_NAME}.template.json`),
    index: path.join(entry, 'index.json'),
    variant: (name: VariantName) => path.join(entry, `variant-${name}.json`),
  };
}

/**
 * What the synthesis reads: the CDK app and the functions it bundles (the MCP function bundles the
 * client's and the MCP server's sources), the ASL file, the studio build
 * and the API description it uploads, the context, the dependencies, the test code that synthesises
 * it, and the ffmpeg whose version the layer's description names.
 */
const INPUTS = [
  'lib',
  'functions',
  'clients/typescript/src',
  'clients/mcp/src',
  'statemachines',
  'studio/dist',
  OPENAPI_FILE,
  'cdk.json',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'test/support/app-synthesis.ts',
  'test/support/synthesis-cache.ts',
  'test/support/layer-trees.ts',
  'test/support/nag-findings.ts',
];

export function inputsHash(): string {
  const hash = createHash('sha256');
  const add = (relative: string) => {
    const stats = fs.statSync(path.join(ROOT, relative), { throwIfNoEntry: false });
    if (stats?.isDirectory()) {
      for (const name of fs.readdirSync(path.join(ROOT, relative)).sort()) add(path.join(relative, name));
    } else {
      hash.update(`${relative}\0`).update(stats ? fs.readFileSync(path.join(ROOT, relative)) : 'missing').update('\0');
    }
  };
  INPUTS.forEach(add);
  for (const { packagedPath } of [FFMPEG, FFPROBE]) {
    const stats = fs.statSync(packagedPath, { throwIfNoEntry: false });
    hash.update(`${packagedPath}:${stats?.size}:${stats?.mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** Entries kept besides the one in use, so switching back to another branch costs nothing. */
const KEPT_ENTRIES = 3;
/** A partial entry this old was left by a run that was killed. */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * The entry for `hash`, built by `build` when it is missing. It is built under a temporary name and
 * renamed in one step, so a killed run leaves no half entry; two runs building at once keep the first.
 */
export async function cachedEntry(hash: string, build: (dir: string) => Promise<void>): Promise<string> {
  const entry = path.join(CACHE_ROOT, hash);
  if (fs.existsSync(entry)) {
    const now = new Date();
    fs.utimesSync(entry, now, now);
    return entry;
  }
  fs.mkdirSync(CACHE_ROOT, { recursive: true });
  const partial = fs.mkdtempSync(path.join(CACHE_ROOT, '.partial-'));
  try {
    await build(partial);
    fs.renameSync(partial, entry);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(entry)) throw error;
  }
  prune(entry);
  return entry;
}

function prune(current: string): void {
  const entries = fs.readdirSync(CACHE_ROOT).map((name) => {
    const dir = path.join(CACHE_ROOT, name);
    return { dir, partial: name.startsWith('.partial-'), mtimeMs: fs.statSync(dir).mtimeMs };
  });
  const finished = entries.filter((e) => !e.partial && e.dir !== current).sort((a, b) => b.mtimeMs - a.mtimeMs);
  const abandoned = entries.filter((e) => e.partial && Date.now() - e.mtimeMs > ABANDONED_MS);
  for (const { dir } of [...finished.slice(KEPT_ENTRIES), ...abandoned]) fs.rmSync(dir, { recursive: true, force: true });
}
