/**
 * The ffmpeg tree the images of the functions that run it hold (render-image.ts), laid out as a Lambda
 * layer would be (/opt): the ffmpeg and ffprobe the project runs locally: Debian 12's `ffmpeg` package
 * (the security-maintained 5.1 branch, installed by `npm install`, see bin/ensure-ffmpeg.sh), with every
 * shared library they load, under Debian's own glibc and loader (debian-binaries.ts): /opt/bin/ffmpeg
 * and /opt/bin/ffprobe are wrapper scripts that run the real binaries under that loader.
 *
 * It is no layer: ~247 MB is past the 200 MB a zip function may hold with its layers (function-sizes.ts).
 * The files are staged by a file copy at synth time.
 */
import * as path from 'node:path';
import { installedRelease, releaseHash, stageRelease } from './debian-binaries';
import type { StagedLayerProps } from './staged-layer';
import { FFMPEG, FFPROBE } from '#render';

export const FFMPEG_ENV = {
  FFMPEG_PATH: '/opt/bin/ffmpeg',
  FFPROBE_PATH: '/opt/bin/ffprobe',
} as const;

/** The layer's tree (bin/, ffmpeg/libexec/, ffmpeg/lib/), read off what this machine has installed (throws saying what to install when it is not there). */
export function ffmpegTree(): StagedLayerProps {
  const release = installedRelease('ffmpeg', FFMPEG.packageName, [FFMPEG, FFPROBE].map((tool) => ({ name: tool.tool, packagedPath: tool.packagedPath })));
  return {
    sourceDir: path.dirname(release.binaries[0]!.source),
    // Hashing 200+ MB on every synth is wasted work: Debian's version and the library set say whether
    // the tree changed.
    assetHash: releaseHash(release, FFMPEG.packageName),
    stage: (outputDir) => void stageRelease(release, outputDir),
    description: `Debian ffmpeg and ffprobe ${release.version} with their shared libraries (${release.libraries.length})`,
    license: 'GPL-3.0',
  };
}
