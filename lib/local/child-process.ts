import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { waitFor } from './wait-for';

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

/** Waits until `probe` succeeds against a child we just started; stops it if it never does. */
export async function whenReady(child: ManagedChild, probe: () => Promise<unknown>, cleanup: () => void): Promise<void> {
  try {
    await waitFor(child.name, async () => {
      if (child.process.exitCode !== null) throw new Error(`it exited: ${child.output()}`);
      await probe();
      return true;
    });
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    cleanup();
  }
}
