/**
 * The face runtime of the local reaction engine (photo avatars, motion from reference clips): human's
 * Node WASM build, the three models it loads, the tfjs packages that build requires and the one WASM
 * binary the backend runs. The loader (functions/render/face/human-loader.ts) requires
 * human by a computed path, so no bundle carries any of it; the tree puts it under
 * nodejs/node_modules, which Lambda's NODE_PATH searches. Only the render function runs it, and that
 * ships as a container image (render-image.ts), which copies this tree into /opt as a layer would be.
 *
 * Trimmed by file, not by package: the installed packages hold every build (browser, ESM, WebGL,
 * source maps) and thirty models, about 130 MB; the files below are what a detection reads, about 9 MB.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StagedTreeLayer, type StagedLayerProps } from './staged-layer';
import { FACE_MODELS, HUMAN_ENTRY, WASM_BINARY } from '#render';
import { findPackageJson } from './native-modules-layer';

interface FacePackage {
  name: string;
  /** Paths inside the package; `main` is the file package.json names (each tfjs package's single-file Node build), `*` the whole package. */
  files: readonly string[];
}

/** A model's JSON and the weight shards it lists. */
function modelFiles(humanDir: string): string[] {
  return FACE_MODELS.flatMap((model) => {
    const json = `models/${model}.json`;
    const manifest = JSON.parse(fs.readFileSync(path.join(humanDir, json), 'utf8')) as { weightsManifest?: { paths: string[] }[] };
    return [json, ...(manifest.weightsManifest ?? []).flatMap((group) => group.paths.map((shard) => `models/${shard}`))];
  });
}

/** What human's Node WASM build requires, and what those require in turn (read off the built files). */
const RUNTIME_PACKAGES: readonly FacePackage[] = [
  { name: '@tensorflow/tfjs-core', files: ['main'] },
  { name: '@tensorflow/tfjs-converter', files: ['main'] },
  { name: WASM_BINARY.packageName, files: ['main', WASM_BINARY.file] },
  // tfjs-core's random ops; small, and its index requires its lib/ files.
  { name: 'seedrandom', files: ['*'] },
];

interface StagedPackage {
  name: string;
  version: string;
  dir: string;
  /** Paths inside the package; empty for the whole package. */
  files: string[];
}

/** The installed packages and the files of each that the layer ships. */
function faceRuntime(projectRoot: string): StagedPackage[] {
  const locate = (name: string, fromDir: string) => {
    const packageJson = findPackageJson(name, fromDir);
    if (!packageJson) throw new Error(`${name} is not installed; the face runtime is staged from node_modules (npm ci)`);
    const manifest = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string; main?: string };
    return { dir: path.dirname(packageJson), version: manifest.version, main: manifest.main ?? 'index.js' };
  };
  const human = locate(HUMAN_ENTRY.packageName, projectRoot);
  const staged: StagedPackage[] = [
    { name: HUMAN_ENTRY.packageName, version: human.version, dir: human.dir, files: ['package.json', HUMAN_ENTRY.file, ...modelFiles(human.dir)] },
  ];
  for (const spec of RUNTIME_PACKAGES) {
    const found = locate(spec.name, human.dir);
    const whole = spec.files.includes('*');
    const files = whole ? [] : ['package.json', ...spec.files.map((f) => (f === 'main' ? path.normalize(found.main) : f))];
    staged.push({ name: spec.name, version: found.version, dir: found.dir, files });
  }
  return staged;
}

/** Copies the runtime under `outputDir`/nodejs/node_modules. */
function stageFaceRuntime(packages: readonly StagedPackage[], outputDir: string): void {
  for (const p of packages) {
    const target = path.join(outputDir, 'nodejs', 'node_modules', p.name);
    if (p.files.length === 0) {
      fs.cpSync(p.dir, target, { recursive: true, dereference: true });
      continue;
    }
    for (const file of p.files) {
      fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
      fs.copyFileSync(path.join(p.dir, file), path.join(target, file));
    }
  }
}

/**
 * Only the local reaction engine detects faces, and every function calling the reaction engine may
 * run it: test mode's jobs (domain/test-mode) use it whatever engine the stack is configured with.
 */
export function needsFaceRuntime(needs: { engines?: readonly string[] }): boolean {
  return (needs.engines ?? []).includes('reaction');
}

/**
 * The face runtime's tree (nodejs/node_modules): for the render function's image (render-image.ts),
 * and as a layer for the zip functions that look for a face in an upload (`faces` in their needs).
 */
export function faceRuntimeTree(projectRoot: string): StagedLayerProps {
  const packages = faceRuntime(projectRoot);
  return {
    sourceDir: packages[0]!.dir,
    // Versions and file lists say whether the tree changed, without hashing 9 MB on every synth.
    assetHash: packages.map((p) => `${p.name}@${p.version}:${p.files.join(',')}`).join(';'),
    stage: (outputDir) => stageFaceRuntime(packages, outputDir),
    description: `face runtime: ${packages.map((p) => `${p.name}@${p.version}`).join(', ')}`,
  };
}

/** The face runtime as a layer, for zip functions whose needs say `faces` (service-function.ts). */
export class FaceRuntimeLayer extends StagedTreeLayer {}
