/**
 * Loads `@vladmandic/human` once per process, offline, on the tfjs WASM backend (docs/engines.md).
 *
 * Nothing here runs at import time: the ~130 MB of tfjs/human is only required when a face is first
 * needed, so API handlers that import the local engine but never render do not pay for it (and a
 * bundler sees no static import of it).
 *
 * Package facts this works around:
 * - human's `exports` map has no usable subpath for the Node WASM build, so the file is required by
 *   its path inside the package;
 * - the WASM backend must be told where its `.wasm` binaries are (`wasmPath` = the backend's `dist/`);
 * - human fetches its models with the global `fetch`, which cannot read `file://` URLs; a tfjs IO
 *   router registered here serves those reads from disk, so nothing ever touches the network.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '#ports/engine';
import { accessSync } from 'node:fs';

/** The part of human's API this engine uses (kept structural: the package's own types pull in DOM). */
export interface HumanFaceResult {
  score: number;
  boxScore: number;
  faceScore: number;
  box: [number, number, number, number];
  mesh: number[][];
  rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
}

interface HumanResult {
  face: HumanFaceResult[];
  error?: string | null;
}

interface HumanTensor {
  dispose(): void;
}

interface HumanTf {
  tensor3d(values: Uint8Array | Int32Array | Float32Array, shape: [number, number, number], dtype?: 'int32' | 'float32'): HumanTensor;
  getBackend(): string;
  io: {
    registerLoadRouter(router: (url: string | string[]) => unknown): void;
  };
}

export interface HumanInstance {
  version: string;
  config: Record<string, unknown>;
  tf: HumanTf;
  load(config?: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  detect(input: HumanTensor, config?: Record<string, unknown>): Promise<HumanResult>;
  models: { list?: () => { name: string; loaded: boolean; size: number }[] } & Record<string, unknown>;
}

interface HumanModule {
  Human: new (config?: Record<string, unknown>) => HumanInstance;
}

const FILE_SCHEME = 'file://';

/** The models humanConfig turns on; the face layer (lib/cloud/face-layer.ts) ships exactly these. */
export const FACE_MODELS = ['blazeface', 'facemesh', 'iris'] as const;

/** The human build and the tfjs WASM binary the loader reads, by package (the face layer ships them). */
export const HUMAN_ENTRY = { packageName: '@vladmandic/human', file: 'dist/human.node-wasm.js' } as const;
export const WASM_BINARY = { packageName: '@tensorflow/tfjs-backend-wasm', file: 'dist/tfjs-backend-wasm-simd.wasm' } as const;

/**
 * Finds a file inside an installed package without going through its `exports` map. The search
 * includes NODE_PATH's folders, which is how a Lambda function finds the face layer under
 * /opt/nodejs/node_modules (lib/cloud/face-layer.ts).
 */
function packageFile(packageName: string, relative: string): string {
  const searchPaths = require.resolve.paths(packageName) ?? [];
  for (const dir of searchPaths) {
    const candidate = path.join(dir, packageName, relative);
    try {
      accessSync(candidate);
      return candidate;
    } catch {
      // keep looking up the node_modules chain
    }
  }
  throw new Error(`${packageName}/${relative} is not installed (npm ci; on Lambda it comes from the face layer)`);
}

/** The directory the models are read from (installed with the package; nothing is downloaded). */
export function humanModelDir(): string {
  return path.dirname(packageFile(HUMAN_ENTRY.packageName, 'models/facemesh.json'));
}

/** Face detector + mesh + iris only; everything else human can do stays off (and unloaded). */
export function humanConfig(modelDir: string, wasmDir: string): Record<string, unknown> {
  return {
    backend: 'wasm',
    wasmPath: wasmDir.endsWith('/') ? wasmDir : `${wasmDir}/`,
    wasmPlatformFetch: false,
    modelBasePath: `${FILE_SCHEME}${modelDir}/`,
    debug: false,
    async: true,
    warmup: 'none',
    cacheModels: false,
    validateModels: false,
    // Every call is an independent image: no result reuse between "similar" frames.
    cacheSensitivity: 0,
    skipAllowed: false,
    deallocate: false,
    ...switchedOff('filter', 'gesture'),
    face: {
      enabled: true,
      detector: { enabled: true, modelPath: 'blazeface.json', rotation: true, maxDetected: 1, minConfidence: 0.3, skipFrames: 0, skipTime: 0, return: false },
      mesh: { enabled: true, modelPath: 'facemesh.json' },
      iris: { enabled: true, modelPath: 'iris.json', skipFrames: 0, skipTime: 0 },
      ...switchedOff('attention', 'description', 'emotion', 'antispoof', 'liveness', 'gear'),
    },
    ...switchedOff('body', 'hand', 'object', 'segmentation'),
  };
}

/** Human's models that we never run: each named one `{ enabled: false }`, so none is loaded. */
function switchedOff(...models: string[]): Record<string, { enabled: false }> {
  return Object.fromEntries(models.map((model) => [model, { enabled: false }]));
}

/**
 * A tfjs IOHandler that reads a graph model (`model.json` + weight shards) from disk. It is what
 * `tf.io.fileSystem` does in tfjs-node, which this build does not have.
 */
function fileModelHandler(url: string) {
  const jsonPath = decodeURIComponent(url.slice(FILE_SCHEME.length));
  return {
    async load() {
      const modelJson = JSON.parse(await fsp.readFile(jsonPath, 'utf8')) as {
        modelTopology: unknown;
        weightsManifest: { paths: string[]; weights: unknown[] }[];
        format?: string;
        generatedBy?: string;
        convertedBy?: string;
        signature?: unknown;
        userDefinedMetadata?: unknown;
        modelInitializer?: unknown;
      };
      const dir = path.dirname(jsonPath);
      const weightSpecs: unknown[] = [];
      const buffers: Buffer[] = [];
      for (const group of modelJson.weightsManifest ?? []) {
        weightSpecs.push(...group.weights);
        for (const shard of group.paths) buffers.push(await fsp.readFile(path.join(dir, shard)));
      }
      const joined = Buffer.concat(buffers);
      // A standalone ArrayBuffer (a pooled Buffer's backing store may hold other data).
      const weightData = joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength);
      return {
        modelTopology: modelJson.modelTopology,
        weightSpecs,
        weightData,
        format: modelJson.format,
        generatedBy: modelJson.generatedBy,
        convertedBy: modelJson.convertedBy,
        signature: modelJson.signature,
        userDefinedMetadata: modelJson.userDefinedMetadata,
        modelInitializer: modelJson.modelInitializer,
      };
    },
  };
}

/** The tfjs modules each router was registered with (two routers for one URL make tfjs refuse). */
const routed = new WeakSet<object>();

function registerFileRouter(tf: HumanTf): void {
  if (routed.has(tf.io)) return;
  routed.add(tf.io);
  tf.io.registerLoadRouter((url) => {
    const first = Array.isArray(url) ? url[0] : url;
    return typeof first === 'string' && first.startsWith(FILE_SCHEME) ? fileModelHandler(first) : null;
  });
}


/**
 * Loads a new human instance (uncached: use getHuman). `modelDir`/`wasmDir` default to the installed
 * packages; tests point them elsewhere to check the failure path.
 */
export async function loadHuman(dirs: { modelDir?: string; wasmDir?: string } = {}): Promise<HumanInstance> {
  let mod: HumanModule;
  let wasmDir: string;
  let modelDir: string;
  try {
    wasmDir = dirs.wasmDir ?? path.dirname(packageFile(WASM_BINARY.packageName, WASM_BINARY.file));
    modelDir = dirs.modelDir ?? humanModelDir();
    // By path, on purpose (see the header); a computed path also keeps bundlers from inlining tfjs.
    const entry = packageFile(HUMAN_ENTRY.packageName, HUMAN_ENTRY.file);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path that bundlers must not follow
    mod = require(entry) as HumanModule;
  } catch (cause) {
    throw new EngineError('engine_failure', `The face landmark models could not be loaded: ${(cause as Error).message}`, { cause });
  }
  const human = new mod.Human(humanConfig(modelDir, wasmDir));
  registerFileRouter(human.tf);
  // human logs its own model load errors with console.log ("<time> Human: ...") and carries on:
  // those lines are kept for the error below, everything else passes through.
  const originalLog = console.log;
  const captured: string[] = [];
  console.log = (...args: unknown[]) => {
    if (args[1] === 'Human:') captured.push(args.slice(2).map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
    else originalLog(...args);
  };
  // The WASM runtime (emscripten) installs process-wide 'uncaughtException'/'unhandledRejection'
  // listeners that rethrow; they would change how the whole process handles errors, so they go.
  const before = { uncaughtException: process.listeners('uncaughtException'), unhandledRejection: process.listeners('unhandledRejection') };
  try {
    await human.init();
    if (human.tf.getBackend() !== 'wasm') throw new Error(`tfjs backend is ${human.tf.getBackend()}, not wasm`);
    await human.load();
  } catch (cause) {
    throw new EngineError('engine_failure', `The face landmark models could not be loaded: ${(cause as Error).message}`, { cause });
  } finally {
    console.log = originalLog;
    const emitter = process as NodeJS.EventEmitter;
    for (const event of ['uncaughtException', 'unhandledRejection']) {
      const known = before[event as keyof typeof before] as unknown[];
      for (const listener of emitter.listeners(event) as ((...args: unknown[]) => void)[]) {
        if (!known.includes(listener) && /throw (ex|reason)\b/.test(String(listener))) emitter.off(event, listener);
      }
    }
  }
  const loaded = modelsLoaded(human);
  const missing = FACE_MODELS.filter((name) => !loaded.includes(name));
  if (missing.length > 0) {
    const detail = captured
      .filter((line) => /error/i.test(line))
      .slice(-2)

      .join('; ');
    throw new EngineError('engine_failure', `The face landmark models could not be loaded (missing: ${missing.join(', ')})${detail ? `: ${detail}` : ''}`);
  }
  return human;
}

/**
 * Names of the models human holds with their weights. (human's own `models.loaded()` also counts a
 * model whose files could not be read: it keeps an empty shell, so the weights' size is the test.)
 */
export function modelsLoaded(human: HumanInstance): string[] {
  const fn = human.models.list;
  if (typeof fn !== 'function') return [];
  return fn.call(human.models).filter((m) => m.loaded && m.size > 0).map((m) => m.name.replace(/\.json$/, ''));
}

let pending: Promise<HumanInstance> | null = null;

/**
 * The process's human instance, loaded on first call (about a second: WASM start and three models).
 * A failed load is not cached, so a later call may try again.
 */
export function getHuman(): Promise<HumanInstance> {
  if (!pending) {
    pending = loadHuman();
    pending.catch(() => {
      pending = null;
    });
  }
  return pending;
}

/** Whether human is already loaded in this process (for tests and diagnostics; loads nothing). */
export function isHumanLoaded(): boolean {
  return pending !== null;
}

/**
 * human (and tfjs) run one inference at a time per process anyway; chaining calls here keeps two
 * renders from interleaving their tensors and makes the per-call timing meaningful.
 */
let queue: Promise<unknown> = Promise.resolve();

export function withHuman<T>(work: (human: HumanInstance) => Promise<T>): Promise<T> {
  const run = queue.then(async () => work(await getHuman()));
  queue = run.catch(() => undefined);
  return run;
}
