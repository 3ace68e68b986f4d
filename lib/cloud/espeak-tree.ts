/**
 * espeak-ng for the render function's image: the local engine speaks a job's voice line with it
 * (functions/render/voice/espeak.ts), and the Lambda base image has none. Debian 12's `espeak-ng`
 * (installed by `npm install`, bin/ensure-espeak.sh) with its shared libraries under Debian's own
 * loader, like ffmpeg (debian-binaries.ts), and its data (phoneme tables, dictionaries, voices): the
 * binary looks for them where Debian installs them, so the wrapper points ESPEAK_DATA_PATH at the
 * tree's copy. Nothing is fetched when the function runs.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installedRelease, releaseHash, stageRelease } from './debian-binaries';
import type { LayerTree } from './staged-layer';
import { ESPEAK } from '#render';

/** Where the image's espeak-ng is; the code finds it by this variable (espeakPath). */
export const ESPEAK_ENV = { [ESPEAK.envVar]: '/opt/bin/espeak-ng' } as const;

/** The tree's folder for the program and its data: espeak-ng reads <ESPEAK_DATA_PATH>/espeak-ng-data. */
const FOLDER = 'espeak-ng';
const DATA_PARENT = 'share';
const DATA_FOLDER = 'espeak-ng-data';

/** Where this machine's espeak-ng reads its data, as the binary itself reports it. */
function installedDataDir(binary: string): string {
  const banner = execFileSync(binary, ['--version'], { encoding: 'utf8' });
  const dir = /Data at: (\S+)/.exec(banner)?.[1];
  if (!dir || !fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${binary} names no data folder that exists: ${banner.trim()}`);
  return dir;
}

/**
 * The tree (bin/espeak-ng, espeak-ng/{libexec,lib,share/espeak-ng-data}), read off what this machine
 * has installed when it is first looked at: a stack whose reaction engine is hosted never stages it,
 * so it synthesises on a machine without espeak-ng.
 */
export function espeakTree(): LayerTree {
  let read: { release: ReturnType<typeof installedRelease>; dataDir: string } | undefined;
  const installed = () =>
    (read ??= {
      release: installedRelease(FOLDER, ESPEAK.packageName, [{ name: 'espeak-ng', packagedPath: ESPEAK.packagedPath }]),
      dataDir: installedDataDir(ESPEAK.packagedPath),
    });
  return {
    get assetHash() {
      const { release, dataDir } = installed();
      return [releaseHash(release, ESPEAK.packageName), `${DATA_FOLDER}:${fs.readdirSync(dataDir, { recursive: true }).length}`].join(';');
    },
    stage: (outputDir) => {
      const { release, dataDir } = installed();
      const root = stageRelease(release, outputDir, { ESPEAK_DATA_PATH: `$root/${DATA_PARENT}` });
      fs.cpSync(dataDir, path.join(root, DATA_PARENT, DATA_FOLDER), { recursive: true, dereference: true });
    },
    get description() {
      const { release } = installed();
      return `Debian espeak-ng ${release.version} with its data and shared libraries (${release.libraries.length})`;
    },
    license: 'GPL-3.0',
  };
}
