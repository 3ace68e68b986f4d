import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import pWaitFor from 'p-wait-for';

export interface ManagedChild {
  name: string;
  process: ChildProcess;
  /** The last lines it wrote, for error messages when it dies. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a service process we own: its output is kept for diagnosis and stop() ends it. A stack killed
 * with SIGKILL cannot: runtime-state records the pids and the next start stops them.
 */
export function startChild(name: string, command: string, args: string[], options: SpawnOptions = {}): ManagedChild {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    process: child,
    output: () => lines.join('\n'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const READY_TIMEOUT_MS = 60_000;

/** Waits until `probe` succeeds against a child we just started; stops it if it never does. */
export async function whenReady(child: ManagedChild, probe: () => Promise<unknown>, cleanup: () => void): Promise<void> {
  try {
    let lastError: unknown;
    await pWaitFor(
      async () => {
        // A child that died will never answer: fail now rather than at the deadline.
        if (child.process.exitCode !== null) throw new Error(`${child.name} exited before it was ready: ${child.output()}`);
        try {
          await probe();
          return true;
        } catch (error) {
          lastError = error;
          return false;
        }
      },
      {
        interval: 150,
        timeout: {
          milliseconds: READY_TIMEOUT_MS,
          fallback: () => {
            throw new Error(`${child.name} did not become ready within ${READY_TIMEOUT_MS / 1000} s${lastError ? `: ${String(lastError)}` : ''}`);
          },
        },
      },
    );
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    cleanup();
  }
}
