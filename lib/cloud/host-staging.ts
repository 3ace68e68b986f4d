/**
 * Where each layer tree (and the render image's copy of it) is staged. The trees are read off the
 * machine: Debian's ffmpeg and espeak-ng with their libraries (debian-binaries.ts), the linux-x64
 * native modules npm installed. A Debian-like x86-64 Linux host with the packages installed (ours, CI)
 * stages them itself; any other host (macOS, arm64, a Linux without the packages) stages the same
 * tree inside a linux/amd64 Debian 12 container with Docker, running the same staging code there
 * (bin/stage-tree.ts). The face runtime is JavaScript, WASM and model files: any host stages it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { espeakTree } from './espeak-tree';
import { faceRuntimeTree } from './face-layer';
import { ffmpegTree } from './ffmpeg-layer';
import { nativeModulesTree } from './native-modules-layer';
import type { ImageTree } from './render-image';
import { PROJECT_ROOT } from './service-function';
import type { LayerTree, StagedLayerProps } from './staged-layer';
import { ESPEAK, FFMPEG } from '#render';

/** The trees as this machine stages them itself. */
export const LOCAL_TREES = {
  ffmpeg: ffmpegTree,
  'espeak-ng': espeakTree,
  'native-modules': () => nativeModulesTree(PROJECT_ROOT),
  face: () => faceRuntimeTree(PROJECT_ROOT),
} as const satisfies Record<ImageTree, () => LayerTree>;
type LocalTrees = typeof LOCAL_TREES;

/** What a tree needs of the machine that stages it. */
const NEEDS: Record<ImageTree, { linuxX64: boolean; debianPackage?: string }> = {
  ffmpeg: { linuxX64: true, debianPackage: FFMPEG.packageName },
  'espeak-ng': { linuxX64: true, debianPackage: ESPEAK.packageName },
  'native-modules': { linuxX64: true },
  face: { linuxX64: false },
};

export interface StagingHost {
  platform: string;
  arch: string;
  /** Whether Debian's package is installed here (dpkg says so). */
  installed(debianPackage: string): boolean;
}

export function thisHost(): StagingHost {
  return {
    platform: process.platform,
    arch: process.arch,
    installed: (name) => spawnSync('dpkg-query', ['-W', '-f', '${Status}', name], { encoding: 'utf8' }).stdout?.includes('install ok installed') ?? false,
  };
}

export type StagingPath = 'local' | 'docker';

export function stagingPath(tree: ImageTree, host: StagingHost): StagingPath {
  const needs = NEEDS[tree];
  if (needs.linuxX64 && (host.platform !== 'linux' || host.arch !== 'x64')) return 'docker';
  if (needs.debianPackage && !host.installed(needs.debianPackage)) return 'docker';
  return 'local';
}

/** Debian 12 (the release the local path reads its packages from) with Node 22, for x86-64. */
export const STAGING_IMAGE = 'public.ecr.aws/docker/library/node:22-bookworm';

/**
 * The container's work: the project without its node_modules (the host's may hold another platform's
 * binaries), installed anew for linux-x64 without install scripts, Debian's packages, then the same
 * staging code a Linux host runs. The files are handed back owned by the caller.
 */
function containerScript(tree: ImageTree, owner: string): string {
  const packages = [FFMPEG.packageName, ESPEAK.packageName].join(' ');
  return [
    'set -e',
    `apt-get update -qq && apt-get install -y -qq --no-install-recommends ${packages} >/dev/null`,
    "mkdir /work && tar -C /src --exclude=./node_modules --exclude='./cdk.out*' -cf - . | tar -C /work -xf -",
    'cd /work && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error',
    `npx tsx bin/stage-tree.ts ${tree} /out`,
    `chown -R ${owner} /out`,
  ].join('\n');
}

/** `docker run` arguments that stage `tree` into `outputDir`. */
export function dockerStagingArgs(tree: ImageTree, outputDir: string, owner = currentOwner()): string[] {
  return [
    'run', '--rm', '--platform', 'linux/amd64',
    '-v', `${PROJECT_ROOT}:/src:ro`,
    '-v', `${path.resolve(outputDir)}:/out`,
    STAGING_IMAGE,
    'bash', '-c', containerScript(tree, owner),
  ];
}

function currentOwner(): string {
  return typeof process.getuid === 'function' && typeof process.getgid === 'function' ? `${process.getuid()}:${process.getgid()}` : '0:0';
}

export type RunDocker = (args: string[]) => void;
const runDocker: RunDocker = (args) => void execFileSync('docker', args, { stdio: 'inherit' });

/**
 * The tree staged in the container. Its asset hash is the image, the tree and the lock file: the
 * Debian versions inside are not known before it runs.
 */
function dockerStagedTree(tree: ImageTree, run: RunDocker): StagedLayerProps {
  const lock = createHash('sha256').update(fs.readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'))).digest('hex').slice(0, 16);
  return {
    sourceDir: PROJECT_ROOT,
    assetHash: `docker:${STAGING_IMAGE}:${tree}:${lock}`,
    stage: (outputDir) => {
      fs.mkdirSync(outputDir, { recursive: true });
      run(dockerStagingArgs(tree, outputDir));
    },
    description: `the ${tree} tree, staged in a linux/amd64 container (${STAGING_IMAGE})`,
    license: tree === 'ffmpeg' || tree === 'espeak-ng' ? 'GPL-3.0' : undefined,
  };
}

/** The tree as this host can stage it: read off the machine, or made in the container. */
export function hostStagedTree<T extends ImageTree>(tree: T, host: StagingHost = thisHost(), run: RunDocker = runDocker): ReturnType<LocalTrees[T]> {
  // A container-staged tree is a StagedLayerProps, which serves wherever a LayerTree does.
  return (stagingPath(tree, host) === 'local' ? LOCAL_TREES[tree]() : dockerStagedTree(tree, run)) as ReturnType<LocalTrees[T]>;
}
