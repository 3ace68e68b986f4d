/**
 * The layer trees (ffmpeg, espeak-ng, the native modules, the face runtime) in the tests. A template test stages a
 * stand-in per tree, one file naming it, instead of about 330 MB; a test that looks inside a tree (the
 * Lambda layout, the tree tests) stages the real one with its own staging function.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCAL_TREES } from '#cloud/host-staging';
import type { ImageTree, ImageTrees } from '#cloud/render-image';
import type { LayerTree } from '#cloud/staged-layer';

const STAND_IN_FOLDER = 'stand-in';

/**
 * `tree` as it is described (the template keeps its layer's description and licence), staged as
 * stand-in/<name>. Its asset hash differs from the real tree's, so no assembly mistakes one for the other.
 */
export function standIn<T extends LayerTree>(name: ImageTree, tree: T): T {
  return {
    ...tree,
    assetHash: `${STAND_IN_FOLDER}:${tree.assetHash}`,
    stage(outputDir: string) {
      fs.mkdirSync(path.join(outputDir, STAND_IN_FOLDER), { recursive: true });
      fs.writeFileSync(path.join(outputDir, STAND_IN_FOLDER, name), name);
    },
  };
}

/** Stand-ins for the render image's trees, without reading what this machine has installed. */
export function standInImageTrees(): ImageTrees {
  const tree = (name: ImageTree) => standIn(name, { assetHash: name, description: `stand-in ${name}`, stage: () => undefined });
  return { ffmpeg: tree('ffmpeg'), 'espeak-ng': tree('espeak-ng'), 'native-modules': tree('native-modules'), face: tree('face') };
}

/** The tree a staged folder stands in for, if it is a stand-in. */
export function standInFor(dir: string): ImageTree | undefined {
  const marker = path.join(dir, STAND_IN_FOLDER);
  if (!fs.existsSync(marker) || fs.readdirSync(dir).length !== 1) return undefined;
  const [name, ...more] = fs.readdirSync(marker);
  return more.length === 0 ? (name as ImageTree) : undefined;
}

/** Stages the real tree into <dir>/<name>, as `cdk synth` stages it into a layer's asset or the render image. */
export function stageRealTree(name: ImageTree, dir: string): string {
  const target = path.join(dir, name);
  fs.mkdirSync(target, { recursive: true });
  LOCAL_TREES[name]().stage(target);
  return target;
}
