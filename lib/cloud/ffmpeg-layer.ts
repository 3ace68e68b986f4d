/**
 * A Lambda layer holding the ffmpeg and ffprobe the project runs locally: Debian 12's `ffmpeg` package
 * (the security-maintained 5.1 branch, installed by `npm install`, see bin/ensure-ffmpeg.sh), with every
 * shared library they load. Lambda's Node.js 22 runtime is Amazon Linux 2023, whose glibc (2.34) is
 * older than the one these binaries were built against (2.36), so Debian's own glibc and loader ship
 * too, and /opt/bin/ffmpeg and /opt/bin/ffprobe are wrapper scripts that run the real binaries under
 * that loader with only the layer's libraries (never /opt/lib of another layer, never the system's).
 *
 * The files are staged by a file copy at synth time (staged-layer.ts).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StagedTreeLayer, type StagedLayerProps } from './staged-layer';
import { FFMPEG, FFPROBE, type BinarySpec } from '#render';

export const FFMPEG_ENV = {
  FFMPEG_PATH: '/opt/bin/ffmpeg',
  FFPROBE_PATH: '/opt/bin/ffprobe',
} as const;

const TOOLS: readonly BinarySpec[] = [FFMPEG, FFPROBE];
/** The loader the wrappers run; glibc's name for it on x86-64. */
const LOADER = 'ld-linux-x86-64.so.2';

interface SharedLibrary {
  /** The name the binaries ask for (their DT_NEEDED soname). */
  name: string;
  /** Where it is on this machine, links followed. */
  source: string;
}

/** The shared libraries `binaries` load, by ldd (which also names the loader); pure over ldd's output. */
function parseLdd(output: string): SharedLibrary[] {
  const found = new Map<string, SharedLibrary>();
  for (const line of output.split('\n')) {
    const mapped = /^\s*(\S+) => (\/\S+) \(0x[0-9a-f]+\)/.exec(line);
    const direct = /^\s*(\/\S+) \(0x[0-9a-f]+\)/.exec(line);
    if (line.includes('not found')) throw new Error(`a library of ffmpeg is missing on this machine: ${line.trim()}`);
    if (mapped) found.set(mapped[1]!, { name: mapped[1]!, source: mapped[2]! });
    else if (direct) found.set(path.basename(direct[1]!), { name: path.basename(direct[1]!), source: direct[1]! });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

interface FfmpegRelease {
  /** Debian's version of the `ffmpeg` package, e.g. 7:5.1.9-0+deb12u1. */
  version: string;
  binaries: { name: string; source: string }[];
  libraries: SharedLibrary[];
}

/** What this machine has installed; throws saying what to install when it is not there. */
function installedRelease(): FfmpegRelease {
  const binaries = TOOLS.map((tool) => {
    if (!fs.existsSync(tool.packagedPath)) {
      throw new Error(`${tool.packagedPath} is missing; the ffmpeg layer is built from Debian's ${tool.packageName} package (npm install, as root on Debian 12)`);
    }
    return { name: tool.tool, source: tool.packagedPath };
  });
  const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', FFMPEG.packageName], { encoding: 'utf8' }).trim();
  const libraries = parseLdd(binaries.map((b) => execFileSync('ldd', [b.source], { encoding: 'utf8' })).join('\n'));
  if (!libraries.some((l) => l.name === LOADER)) throw new Error(`ldd named no ${LOADER}: not an x86-64 glibc build`);
  return { version, binaries, libraries };
}

/** A wrapper at bin/<name>: the real binary under the layer's loader, with the layer's libraries only. */
function wrapper(name: string): string {
  return [
    '#!/bin/sh',
    "# Debian's build under its own glibc (see lib/cloud/ffmpeg-layer.ts); --library-path replaces LD_LIBRARY_PATH.",
    'root=$(cd "${0%/*}/.." && pwd)/ffmpeg',
    `exec "$root/lib/${LOADER}" --library-path "$root/lib" "$root/libexec/${name}" "$@"`,
    '',
  ].join('\n');
}

/** Writes the layer's tree (bin/, ffmpeg/libexec/, ffmpeg/lib/) into `outputDir`. */
function stageFfmpegLayer(release: FfmpegRelease, outputDir: string): void {
  const dirs = { bin: path.join(outputDir, 'bin'), libexec: path.join(outputDir, 'ffmpeg', 'libexec'), lib: path.join(outputDir, 'ffmpeg', 'lib') };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const copy = (source: string, target: string) => {
    fs.copyFileSync(fs.realpathSync(source), target);
    // The asset zip (and the image's COPY) keeps the mode, and Lambda runs as a non-root user.
    fs.chmodSync(target, 0o755);
  };
  for (const b of release.binaries) {
    copy(b.source, path.join(dirs.libexec, b.name));
    const script = path.join(dirs.bin, b.name);
    fs.writeFileSync(script, wrapper(b.name), { mode: 0o755 });
  }
  for (const l of release.libraries) copy(l.source, path.join(dirs.lib, l.name));
}

/** The layer's tree, read off what this machine has installed (throws saying what to install when it is not there). */
export function ffmpegTree(): StagedLayerProps {
  const release = installedRelease();
  return {
    sourceDir: path.dirname(release.binaries[0]!.source),
    // Hashing 200+ MB on every synth is wasted work: Debian's version and the library set say whether
    // the tree changed.
    assetHash: [`ffmpeg@${release.version}`, ...release.libraries.map((l) => `${l.name}:${fs.statSync(l.source).size}`)].join(';'),
    stage: (outputDir) => stageFfmpegLayer(release, outputDir),
    description: `Debian ffmpeg and ffprobe ${release.version} with their shared libraries (${release.libraries.length})`,
    license: 'GPL-3.0',
  };
}

export class FfmpegLayer extends StagedTreeLayer {}
