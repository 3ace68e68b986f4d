/**
 * `npm start` as a real process tree (npm → node running bin/serve.ts → java and s3rver), started in
 * a process group of its own so a test can kill all of it at once with SIGKILL, like an OOM kill, a
 * `docker kill`, or a terminal closing. Output is kept for failure messages, never printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

export interface ServeProcess {
  apiUrl: string;
  /** The demo account's key, printed on the first start of a data dir only. */
  demoKey?: string;
  /** How long it took to print its API URL. */
  startMs: number;
  output(): string;
  /** SIGKILL to the whole process group: no handler runs, nothing is flushed or stopped. */
  killGroup(): Promise<void>;
  /** Ctrl-C-like: SIGTERM to the process running bin/serve.ts; the group is killed if it lingers. */
  stop(): Promise<void>;
  /** SIGTERM to npm itself, as a service manager or `docker stop` sends it; true once no process of the group is left. */
  terminateLauncher(timeoutMs?: number): Promise<boolean>;
}

/** Whether any process of the group still exists (zombies included, so this waits for them to be reaped). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startServe(dataDir: string, options: { env?: NodeJS.ProcessEnv; readyTimeoutMs?: number } = {}): Promise<ServeProcess> {
  const began = Date.now();
  const proc = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output += chunk);
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const killGroup = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      try {
        process.kill(-proc.pid!, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    }
    await exited;
  };
  try {
    await whenPrinted(proc, () => output, 'Ctrl-C stops everything', options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await killGroup();
    throw error;
  }
  const apiUrl = /Reaction Studio API on (\S+)/.exec(output)?.[1];
  if (!apiUrl) {
    await killGroup();
    throw new Error(`no API URL in the output of npm start:\n${output}`);
  }
  return {
    apiUrl,
    demoKey: /^\s+(rsk_[A-Za-z0-9_-]{43})\s*$/m.exec(output)?.[1],
    startMs: Date.now() - began,
    output: () => output,
    killGroup,
    async stop() {
      const { pid } = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as { pid: number };
      process.kill(pid, 'SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 30_000)))]);
      clearTimeout(timer);
      if (!stopped) await killGroup();
    },
    async terminateLauncher(timeoutMs = 30_000) {
      process.kill(proc.pid!, 'SIGTERM');
      for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
        if (!groupAlive(proc.pid!)) return true;
      }
      await killGroup();
      return false;
    },
  };
}

function whenPrinted(proc: ChildProcess, output: () => string, marker: string, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => finish(new Error(`npm start was not ready in ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const onData = () => {
      if (output().includes(marker)) finish();
    };
    const onExit = (code: number | null, signal: string | null) => finish(new Error(`npm start exited (${code ?? signal}) before it was ready:\n${output()}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      proc.stdout!.off('data', onData);
      proc.off('exit', onExit);
      if (error) reject(error);
      else resolveReady();
    }
    proc.stdout!.on('data', onData);
    proc.once('exit', onExit);
  });
}
