/**
 * A function of the synthesised app laid out the way Lambda runs it, without an AWS account: a zip
 * function's bundle asset as <root>/var/task and its layers' assets merged as <root>/opt; an image
 * function's staged build context copied where its Dockerfile's COPY lines put it (read from the
 * staged Dockerfile itself, so the layout is what the image holds), with the Dockerfile's ENV; an empty
 * <root>/var/runtime/node_modules where the runtime keeps its own AWS SDK (the bundles carry theirs,
 * so nothing may resolve there), and the handler invoked in a fresh Node
 * 22 process started in var/task with Lambda's NODE_PATH and PATH rewritten under <root>. Nothing it
 * runs can reach the repository's node_modules: the root is a temp folder, and NODE_PATH names only
 * the layout. Where the synthesis staged a stand-in for a layer tree, the layout has the real tree.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDockerfile, type ImageTree } from '#cloud/render-image';
import { ZIP_BUDGET_BYTES } from '#cloud/function-sizes';
import type { Json, Resource, Synthesised } from './cdk-template';
import { stageRealTree, standInFor } from './layer-trees';
const { random } = Math;

/**
 * The Node that runs the tests: bin/ensure-node.sh makes every npm script run on Node 22, the Lambda
 * runtime's major version (lambda-layout.test.ts checks it), so the functions load here as there.
 */
export const NODE22 = process.execPath;

/** Lambda's limit on a container image, uncompressed, all its layers included. */
export const LAMBDA_IMAGE_LIMIT_BYTES = 10 * 1024 * 1024 * 1024;

/**
 * What the base image (public.ecr.aws/lambda/nodejs:24, about half a gigabyte) may take at most: it is
 * not pulled here, so an image's size is its copied context plus this.
 */
const BASE_IMAGE_ALLOWANCE_BYTES = 1024 * 1024 * 1024;

/** Where the Lambda base images put the function's code (their LAMBDA_TASK_ROOT). */
const IMAGE_TASK_ROOT = '/var/task';

export interface FunctionAssets {
  id: string;
  /** `index.handler`: module path in var/task and export name. */
  handler: string;
  memoryMb: number;
  timeoutS: number;
  environment: Record<string, Json>;
  packageType: 'Zip' | 'Image';
  /**
   * What the function's files are made of, in order (a later tree's file wins): a zip function's
   * bundle at /var/task, then its layers at /opt in the order it lists them; an image's context
   * folders where its Dockerfile copies them.
   */
  trees: { dir: string; to: string }[];
  /** An image's own ENV, under the function's configured environment; empty for a zip function. */
  imageEnv: Record<string, string>;
}

/** The staged asset folder of a function's code or a layer's content (`<hash>.zip` in the template). */
function assetDir(outdir: string, code: { S3Key?: unknown }): string {
  const key = code.S3Key;
  if (typeof key !== 'string' || !key.endsWith('.zip')) throw new Error(`not a staged zip asset: ${JSON.stringify(code)}`);
  const dir = path.join(outdir, `asset.${key.slice(0, -'.zip'.length)}`);
  if (!fs.statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
  return dir;
}

/** The staged build context of an image function's code (the tag of its `ImageUri` is the asset hash). */
function imageContextDir(outdir: string, code: { ImageUri?: Json }): string {
  const uri = code.ImageUri?.['Fn::Sub'] ?? code.ImageUri;
  const hash = typeof uri === 'string' ? /:([0-9a-f]{64})$/.exec(uri)?.[1] : undefined;
  if (!hash) throw new Error(`not a staged image asset: ${JSON.stringify(code)}`);
  return path.join(outdir, `asset.${hash}`);
}

/**
 * The real layer trees for the stand-ins the synthesis staged (test/support/layer-trees.ts): each
 * staged into `dir` by its own staging function the first time a layout needs it. Any other folder
 * is itself.
 */
export function realTreesIn(dir: string): (staged: string) => string {
  const real = new Map<ImageTree, string>();
  return (staged) => {
    const name = standInFor(staged);
    if (!name) return staged;
    if (!real.has(name)) real.set(name, stageRealTree(name, dir));
    return real.get(name)!;
  };
}

/** Lays an image out as its Dockerfile builds it: each COPY'd context folder at its destination. */
function imageAssets(outdir: string, props: Json, realTree: (staged: string) => string): Pick<FunctionAssets, 'handler' | 'trees' | 'imageEnv'> {
  const context = imageContextDir(outdir, props.Code);
  const dockerfile = parseDockerfile(fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8'));
  const trees = dockerfile.copies.map(({ folder, to }) => ({ dir: realTree(path.join(context, folder)), to: to.replace('${LAMBDA_TASK_ROOT}', IMAGE_TASK_ROOT).replace(/\/$/, '') }));
  const handler = (props.ImageConfig?.Command as string[] | undefined)?.[0] ?? dockerfile.cmd[0];
  if (!handler) throw new Error(`${context}/Dockerfile names no handler (CMD)`);
  return { handler, trees, imageEnv: dockerfile.env };
}

export function functionAssets(synthesised: Pick<Synthesised, 'resources' | 'outdir'>, id: string, realTree: (staged: string) => string): FunctionAssets {
  const resource: Resource | undefined = synthesised.resources[id];
  if (resource?.Type !== 'AWS::Lambda::Function') throw new Error(`${id} is not a Lambda function`);
  const props = resource.Properties;
  const common = {
    id,
    memoryMb: props.MemorySize as number,
    timeoutS: props.Timeout as number,
    environment: (props.Environment?.Variables ?? {}) as Record<string, Json>,
  };
  if (props.PackageType === 'Image') return { ...common, packageType: 'Image', ...imageAssets(synthesised.outdir, props, realTree) };
  const layerDirs = ((props.Layers ?? []) as Json[]).map((layer) => {
    const layerResource = synthesised.resources[layer.Ref as string];
    if (layerResource?.Type !== 'AWS::Lambda::LayerVersion') throw new Error(`${id} has a layer that is not in this stack: ${JSON.stringify(layer)}`);
    return realTree(assetDir(synthesised.outdir, layerResource.Properties.Content));
  });
  return {
    ...common,
    packageType: 'Zip',
    handler: props.Handler as string,
    trees: [{ dir: assetDir(synthesised.outdir, props.Code), to: '/var/task' }, ...layerDirs.map((dir) => ({ dir, to: '/opt' }))],
    imageEnv: {},
  };
}

/** What a function's files take against its limit: a zip's bundle and layers, or an image's context and base. */
export function functionSize(assets: FunctionAssets): { partsBytes: number[]; bytes: number; limitBytes: number } {
  const partsBytes = assets.trees.map((t) => dirBytes(t.dir));
  const copied = partsBytes.reduce((sum, b) => sum + b, 0);
  return assets.packageType === 'Image'
    ? { partsBytes, bytes: copied + BASE_IMAGE_ALLOWANCE_BYTES, limitBytes: LAMBDA_IMAGE_LIMIT_BYTES }
    : { partsBytes, bytes: copied, limitBytes: ZIP_BUDGET_BYTES };
}

export function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += dirBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

/**
 * Hard links (no copy of 250 MB of ffmpeg per function); a later tree's file replaces an earlier one's.
 * The synthesis may be on another file system than the layout (node_modules/.cache, a temp folder): a copy then.
 */
function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      linkTree(source, target);
    } else {
      fs.rmSync(target, { force: true });
      if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
      else linkOrCopy(source, target);
    }
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    fs.linkSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.copyFileSync(source, target);
  }
}

/** Lambda's absolute paths, moved under the layout root. */
const LAMBDA_DIRS = ['/var/task', '/var/runtime', '/opt'] as const;
const underRoot = (root: string, value: string) => {
  const dir = LAMBDA_DIRS.find((d) => value === d || value.startsWith(`${d}/`));
  return dir ? path.join(root, value) : value;
};
/** A path list (NODE_PATH, PATH) with each of Lambda's folders under the root. */
const listUnderRoot = (root: string, value: string) => value.split(':').map((p) => underRoot(root, p)).join(':');

/** Helper scripts, placed where Lambda keeps its own bootstrap (never in var/task). */
const INVOKE_SCRIPT = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const [, , taskRoot, handlerSpec, eventFile, resultFile, timeoutS] = process.argv;
const dot = handlerSpec.lastIndexOf('.');
const write = (outcome) => { fs.writeFileSync(resultFile, JSON.stringify(outcome)); process.exit(0); };
const fail = (error) => write({ error: { name: error && error.name, message: error && error.message, stack: error && error.stack } });
const deadline = Date.now() + Number(timeoutS) * 1000;
const context = {
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, functionVersion: '$LATEST', memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:' + process.env.AWS_LAMBDA_FUNCTION_NAME,
  awsRequestId: 'layout-' + process.pid, logGroupName: '/aws/lambda/layout', logStreamName: 'layout', callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
};
try {
  const handler = require(path.join(taskRoot, handlerSpec.slice(0, dot)))[handlerSpec.slice(dot + 1)];
  Promise.resolve(handler(JSON.parse(fs.readFileSync(eventFile, 'utf8')), context)).then((result) => write({ result: result === undefined ? null : result }), fail);
} catch (error) { fail(error); }
`;

/** Which of the requests named (the bundle's require() calls, found by the caller) neither Node nor the layout can satisfy. */
const RESOLVE_SCRIPT = `'use strict';
const { createRequire, isBuiltin } = require('node:module');
const [, , entry, ...requested] = process.argv;
const fromEntry = createRequire(entry);
const out = { requested: [...new Set(requested)].sort(), unresolved: [] };
for (const request of out.requested) {
  if (isBuiltin(request)) continue;
  try { fromEntry.resolve(request); } catch { out.unresolved.push(request); }
}
process.stdout.write(JSON.stringify(out));
`;

export interface LaidOutFunction {
  assets: FunctionAssets;
  root: string;
  task: string;
  opt: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Lays `assets` out under `root` (which must not exist yet). `refs` resolves the template's `Ref`s in
 * the environment (table, bucket); `extraEnv` adds what the local stand-ins need (endpoints).
 */
export function layOut(assets: FunctionAssets, root: string, refs: Record<string, string>, extraEnv: Record<string, string> = {}): LaidOutFunction {
  const task = path.join(root, 'var', 'task');
  const opt = path.join(root, 'opt');
  fs.mkdirSync(task, { recursive: true });
  fs.mkdirSync(opt, { recursive: true });
  for (const tree of assets.trees) {
    const target = underRoot(root, tree.to);
    // A tree anywhere else would be linked outside the layout.
    if (target === tree.to) throw new Error(`${assets.id}: ${tree.dir} goes to ${tree.to}, outside Lambda's folders`);
    linkTree(tree.dir, target);
  }
  fs.mkdirSync(path.join(root, 'var', 'runtime'), { recursive: true });
  fs.writeFileSync(path.join(root, 'var', 'runtime', 'invoke.cjs'), INVOKE_SCRIPT);
  fs.writeFileSync(path.join(root, 'var', 'runtime', 'resolve.cjs'), RESOLVE_SCRIPT);

  const functionEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(assets.environment)) {
    if (typeof value === 'string') functionEnv[name] = underRoot(root, value);
    else if (value?.Ref && refs[value.Ref]) functionEnv[name] = refs[value.Ref]!;
    // Names of resources this test does not stand in for (other functions, the state machine, the key).
    else functionEnv[name] = `unresolved:${JSON.stringify(value)}`;
  }
  const env: NodeJS.ProcessEnv = {
    // What Lambda sets for the Node.js runtime, with its folders under the root.
    NODE_PATH: ['/opt/nodejs/node22/node_modules', '/opt/nodejs/node_modules', '/var/runtime/node_modules', '/var/runtime', '/var/task'].map((d) => underRoot(root, d)).join(':'),
    PATH: [underRoot(root, '/opt/bin'), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    LD_LIBRARY_PATH: ['/var/task', '/var/task/lib', '/opt/lib'].map((d) => underRoot(root, d)).join(':'),
    LAMBDA_TASK_ROOT: task,
    LAMBDA_RUNTIME_DIR: underRoot(root, '/var/runtime'),
    HOME: root,
    TMPDIR: fs.mkdtempSync(path.join(root, 'tmp-')),
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: assets.id,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(assets.memoryMb),
    AWS_ACCESS_KEY_ID: 'layout',
    AWS_SECRET_ACCESS_KEY: 'layout',
    // The image's ENV replaces the runtime's defaults; the function's configuration replaces both.
    ...Object.fromEntries(Object.entries(assets.imageEnv).map(([name, value]) => [name, listUnderRoot(root, value)])),
    ...functionEnv,
    ...extraEnv,
  };
  return { assets, root, task, opt, env };
}

function runNode(fn: LaidOutFunction, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(NODE22, args, { cwd: fn.task, env: fn.env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${fn.assets.id}: node exited with ${error.code ?? error.signal}: ${stderr.slice(-4000)}`));
      else resolve({ stdout, stderr });
    });
  });
}

export interface Invocation {
  result?: any;
  error?: { name?: string; message?: string; stack?: string };
  /** What the function logged (stdout and stderr), for the failure message. */
  logs: string;
}

/** Invokes the handler once, in a fresh process, with the function's own timeout. */
export async function invoke(fn: LaidOutFunction, event: unknown): Promise<Invocation> {
  const eventFile = path.join(fn.root, `event-${Date.now()}-${random().toString(36).slice(2)}.json`);
  const resultFile = `${eventFile}.result`;
  fs.writeFileSync(eventFile, JSON.stringify(event));
  const script = path.join(fn.root, 'var', 'runtime', 'invoke.cjs');
  const { stdout, stderr } = await runNode(fn, [script, fn.task, fn.assets.handler, eventFile, resultFile, String(fn.assets.timeoutS)], (fn.assets.timeoutS + 30) * 1000);
  const outcome = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as Omit<Invocation, 'logs'>;
  return { ...outcome, logs: `${stdout}\n${stderr}` };
}

/**
 * The bundle's require() calls with a literal name (plus `extra`), and those that resolve to nothing
 * in the layout. esbuild parses the bundle, so a name inside a string (an SDK error message telling
 * the reader to `require("@aws-sdk/signature-v4-crt")`) is not taken for a call.
 */
export async function requires(fn: LaidOutFunction, extra: readonly string[] = []): Promise<{ requested: string[]; unresolved: string[] }> {
  const entry = path.join(fn.task, `${fn.assets.handler.slice(0, fn.assets.handler.lastIndexOf('.'))}.js`);
  const { build } = await import('esbuild');
  const parsed = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'node', external: ['*'], logLevel: 'silent' });
  const called = Object.values(parsed.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));
  const { stdout } = await runNode(fn, [path.join(fn.root, 'var', 'runtime', 'resolve.cjs'), entry, ...called, ...extra], 30_000);
  return JSON.parse(stdout) as { requested: string[]; unresolved: string[] };
}
