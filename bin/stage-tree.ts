/**
 * Stages one layer tree into a folder with this machine's files: `tsx bin/stage-tree.ts <tree> <dir>`
 * (ffmpeg, espeak-ng, native-modules, face). A host that cannot stage a tree itself runs this inside a
 * linux/amd64 Debian container (lib/cloud/host-staging.ts).
 */
import { LOCAL_TREES } from '#cloud/host-staging';
import type { ImageTree } from '#cloud/render-image';

const [tree, outputDir] = process.argv.slice(2);
if (!tree || !outputDir || !(tree in LOCAL_TREES)) {
  process.stderr.write(`usage: tsx bin/stage-tree.ts <${Object.keys(LOCAL_TREES).join('|')}> <output folder>\n`);
  process.exit(2);
}
LOCAL_TREES[tree as ImageTree]().stage(outputDir);
