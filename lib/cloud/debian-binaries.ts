/**
 * Debian programs the project runs locally (ffmpeg, espeak-ng), staged with every shared library they
 * load, for Lambda. Lambda's Node.js runtime is Amazon Linux 2023, whose glibc (2.34) is older than
 * the one Debian 12 built them against (2.36), so Debian's own glibc and loader ship too, and
 * bin/<name> is a wrapper script that runs the real binary under that loader with only the tree's
 * libraries (never /opt/lib of another layer, never the system's). The files are read off what this
 * machine has installed, at synth time.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The loader the wrappers run; glibc's name for it on x86-64. */
const LOADER = 'ld-linux-x86-64.so.2';

interface SharedLibrary {
  /** The name the binaries ask for (their DT_NEEDED soname). */
  name: string;
  /** Where it is on this machine, links followed. */
  source: string;
}

/** The shared libraries the binaries load, by ldd (which also names the loader); pure over ldd's output. */
function parseLdd(output: string, what: string): SharedLibrary[] {
  const found = new Map<string, SharedLibrary>();
  for (const line of output.split('\n')) {
    const mapped = /^\s*(\S+) => (\/\S+) \(0x[0-9a-f]+\)/.exec(line);
    const direct = /^\s*(\/\S+) \(0x[0-9a-f]+\)/.exec(line);
    if (line.includes('not found')) throw new Error(`a library of ${what} is missing on this machine: ${line.trim()}`);
    if (mapped) found.set(mapped[1]!, { name: mapped[1]!, source: mapped[2]! });
    else if (direct) found.set(path.basename(direct[1]!), { name: path.basename(direct[1]!), source: direct[1]! });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

interface DebianRelease {
  /** The folder of the tree that holds libexec/ and lib/ (and anything else the program reads). */
  folder: string;
  /** Debian's version of the package, e.g. 7:5.1.9-0+deb12u1. */
  version: string;
  binaries: { name: string; source: string }[];
  libraries: SharedLibrary[];
}

/** What this machine has installed of `packageName`; throws saying what to install when it is not there. */
export function installedRelease(folder: string, packageName: string, tools: readonly { name: string; packagedPath: string }[]): DebianRelease {
  const binaries = tools.map((tool) => {
    if (!fs.existsSync(tool.packagedPath)) {
      throw new Error(`${tool.packagedPath} is missing; the ${folder} tree is built from Debian's ${packageName} package (npm install, as root on Debian 12)`);
    }
    return { name: tool.name, source: tool.packagedPath };
  });
  const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', packageName], { encoding: 'utf8' }).trim();
  const libraries = parseLdd(binaries.map((b) => execFileSync('ldd', [b.source], { encoding: 'utf8' })).join('\n'), packageName);
  if (!libraries.some((l) => l.name === LOADER)) throw new Error(`ldd named no ${LOADER}: not an x86-64 glibc build`);
  return { folder, version, binaries, libraries };
}

/**
 * A wrapper at bin/<name>: the real binary under the tree's loader, with the tree's libraries only.
 * `env` sets variables to paths inside the tree (`$root` is <tree>/<folder>), for a program that
 * would otherwise look for its data where Debian installs it.
 */
function wrapper(release: DebianRelease, name: string, env: Readonly<Record<string, string>>): string {
  return [
    '#!/bin/sh',
    "# Debian's build under its own glibc (see lib/cloud/debian-binaries.ts); --library-path replaces LD_LIBRARY_PATH.",
    `root=$(cd "\${0%/*}/.." && pwd)/${release.folder}`,
    ...Object.entries(env).map(([variable, value]) => `export ${variable}="${value}"`),
    `exec "$root/lib/${LOADER}" --library-path "$root/lib" "$root/libexec/${name}" "$@"`,
    '',
  ].join('\n');
}

/** Writes the tree (bin/, <folder>/libexec/, <folder>/lib/) into `outputDir`; returns <outputDir>/<folder>. */
export function stageRelease(release: DebianRelease, outputDir: string, env: Readonly<Record<string, string>> = {}): string {
  const root = path.join(outputDir, release.folder);
  const dirs = { bin: path.join(outputDir, 'bin'), libexec: path.join(root, 'libexec'), lib: path.join(root, 'lib') };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const copy = (source: string, target: string) => {
    fs.copyFileSync(fs.realpathSync(source), target);
    // The asset zip (and the image's COPY) keeps the mode, and Lambda runs as a non-root user.
    fs.chmodSync(target, 0o755);
  };
  for (const b of release.binaries) {
    copy(b.source, path.join(dirs.libexec, b.name));
    fs.writeFileSync(path.join(dirs.bin, b.name), wrapper(release, b.name, env), { mode: 0o755 });
  }
  for (const l of release.libraries) copy(l.source, path.join(dirs.lib, l.name));
  return root;
}

/** Says whether the tree changed without hashing it: Debian's version and the library set. */
export function releaseHash(release: DebianRelease, packageName: string): string {
  return [`${packageName}@${release.version}`, ...release.libraries.map((l) => `${l.name}:${fs.statSync(l.source).size}`)].join(';');
}
