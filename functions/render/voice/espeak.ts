/**
 * Debian's `espeak-ng`, the offline engine's draft voice: a line of text → a WAV and the phonemes it
 * spoke. Found like ffmpeg (functions/media/binaries.ts): ESPEAK_NG_PATH, else the Debian package's
 * fixed path (`npm install` installs it, bin/ensure-espeak.sh); never a PATH search.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ensureExecutable } from '../ffmpeg/binaries';
import { EngineError } from '#ports/engine';
import { environment } from '#functions/config';
const { round } = Math;

export const ESPEAK = { envVar: 'ESPEAK_NG_PATH', packageName: 'espeak-ng', packagedPath: '/usr/bin/espeak-ng' } as const;

/** The voice: espeak-ng's American English. */
const ESPEAK_VOICE = 'en-us';
/** espeak-ng's default speed, words a minute. */
export const DEFAULT_RATE_WPM = 175;

export interface EspeakOptions {
  env?: NodeJS.ProcessEnv;
  /** The packaged binary's path; `null` means "not installed". Default: ESPEAK.packagedPath. */
  packagedPath?: string | null;
}

/** The espeak-ng binary, or an EngineError that says the voice cannot be spoken here and what to install. */
export function espeakPath(options: EspeakOptions = {}): string {
  const env = options.env ?? environment();
  const hint = `set ${ESPEAK.envVar}, or install Debian's ${ESPEAK.packageName} package (npm install does it as root; else sudo apt-get install ${ESPEAK.packageName})`;
  const explicit = env[ESPEAK.envVar];
  const packaged = options.packagedPath === undefined ? ESPEAK.packagedPath : options.packagedPath;
  if (!explicit && (!packaged || !fs.existsSync(packaged))) throw missing(`espeak-ng is not installed: ${hint}`);
  const file = explicit || packaged!;
  try {
    return ensureExecutable(file);
  } catch (cause) {
    throw missing(`${explicit ? `${ESPEAK.envVar} is set to ${explicit}, which` : file} is not an executable file: ${hint}`, cause);
  }
}

function missing(detail: string, cause?: unknown): EngineError {
  return new EngineError('engine_failure', `the voice line cannot be spoken on this server (${detail})`, { retryable: false, cause });
}

export interface Spoken {
  wavPath: string;
  /** `espeak-ng -x --sep=' '`: one clause a line, phonemes separated by spaces. */
  phonemes: string;
}

/**
 * Speaks `text` into `<dir>/<name>.wav` at `rateWpm`. The text goes in a file (`-f`), so a line that
 * starts with `-` is never read as an option; `-b 1` says it is UTF-8; no SSML.
 */
export async function speak(text: string, dir: string, options: { rateWpm: number; name?: string; signal?: AbortSignal; binary?: string }): Promise<Spoken> {
  const binary = options.binary ?? espeakPath();
  const base = path.join(dir, options.name ?? 'voice');
  const textPath = `${base}.txt`;
  const wavPath = `${base}.wav`;
  await fsp.writeFile(textPath, text.replace(/\s+/g, ' ').trim(), 'utf8');
  const args = ['-v', ESPEAK_VOICE, '-b', '1', '-s', String(round(options.rateWpm)), '-x', '--sep= ', '-w', wavPath, '-f', textPath];
  const phonemes = await run(binary, args, options.signal);
  return { wavPath, phonemes };
}

function run(binary: string, args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4096)));
    child.on('error', (cause) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(missing(`espeak-ng could not be started: ${cause.message}`, cause));
    });
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(new EngineError('cancelled', 'the generation was cancelled', { retryable: false }));
      if (code === 0) return resolve(stdout);
      reject(new EngineError('engine_failure', 'speaking the voice line failed; try again', {
        retryable: true,
        cause: new Error(`espeak-ng exited with ${killedBy ?? code}: ${stderr.trim().split('\n').pop() ?? ''}`),
      }));
    });
  });
}
