/**
 * `npm start` serves the studio from its build; this makes the build when it is missing or older than
 * its sources, so a fresh checkout (or an edited page) needs no separate step.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');
const BUILT_PAGE = resolve(ROOT, 'studio', 'dist', 'index.html');
const SOURCES = ['studio/src', 'studio/public', 'studio/index.html', 'studio/vite.config.mts', 'clients/typescript/src', 'package-lock.json'].map((path) => resolve(ROOT, path));

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stats.mtimeMs);
}

function studioBuildIsCurrent(): boolean {
  if (!existsSync(BUILT_PAGE)) return false;
  const built = statSync(BUILT_PAGE).mtimeMs;
  return SOURCES.every((source) => !existsSync(source) || newestChange(source) <= built);
}

const VITE_BUILD = () => [resolve(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js'), 'build', '--config', resolve(ROOT, 'studio', 'vite.config.mts')];

// A child process: the build's memory is returned when it ends, not kept by the serving process.
async function buildStudio(): Promise<void> {
  await promisify(execFile)(process.execPath, VITE_BUILD(), { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
}

/** For the CDK app, whose constructs are made synchronously. */
export function buildStudioSync(): void {
  if (!studioBuildIsCurrent()) execFileSync(process.execPath, VITE_BUILD(), { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function ensureStudioBuilt(log: (line: string) => void): Promise<void> {
  if (studioBuildIsCurrent()) return;
  log('Building the studio (studio/dist)...');
  await buildStudio();
}
