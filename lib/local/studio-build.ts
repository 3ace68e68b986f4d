/**
 * `npm start` serves the studio from its build; this makes the build when it is missing or older than
 * its sources, so a fresh checkout (or an edited page) needs no separate step.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');
const BUILT_PAGE = resolve(ROOT, 'studio', 'dist', 'index.html');
const SOURCES = ['studio/src', 'studio/index.html', 'studio/vite.config.mts', 'clients/typescript/src', 'package-lock.json'].map((path) => resolve(ROOT, path));

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stats.mtimeMs);
}

export function studioBuildIsCurrent(): boolean {
  if (!existsSync(BUILT_PAGE)) return false;
  const built = statSync(BUILT_PAGE).mtimeMs;
  return SOURCES.every((source) => !existsSync(source) || newestChange(source) <= built);
}

export async function buildStudio(): Promise<void> {
  // A child process: the build's memory is returned when it ends, not kept by the serving process.
  await promisify(execFile)(process.execPath, [resolve(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js'), 'build', '--config', resolve(ROOT, 'studio', 'vite.config.mts')], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
}

export async function ensureStudioBuilt(log: (line: string) => void): Promise<void> {
  if (studioBuildIsCurrent()) return;
  log('Building the studio (studio/dist)...');
  await buildStudio();
}
