/** Where a running local stack says how to reach it, so the CLI can find it through the data dir. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isInstanceLockHeld } from './instance-lock';
import { localEnvironment } from './config';

export interface RuntimeState {
  /** The process running the stack; informative only (a pid outlives its process as a zombie, or is reused). */
  pid: number;
  apiUrl: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
}

export const LOCAL_TABLE = 'reaction-studio';
export const LOCAL_BUCKET = 'reaction-studio-media';

export const dataDirOf = (dir = localEnvironment().DATA_DIR || '.data') => resolve(dir);
const stateFile = (dataDir: string) => join(dataDir, 'runtime.json');

export function writeRuntimeState(dataDir: string, state: RuntimeState): void {
  writeFileSync(stateFile(dataDir), JSON.stringify(state, null, 2));
}

export function clearRuntimeState(dataDir: string): void {
  rmSync(stateFile(dataDir), { force: true });
}

/** What runtime.json says, whether or not its stack still runs (for messages); undefined if unreadable. */
export function readRuntimeFile(dataDir: string): RuntimeState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(dataDir), 'utf8')) as RuntimeState;
  } catch {
    return undefined;
  }
}

/**
 * The state of a stack that is still running, or undefined. "Running" is decided by the data dir's
 * instance lock, which dies with its holder; the runtime.json a killed stack leaves behind is ignored.
 */
export async function readRuntimeState(dataDir: string): Promise<RuntimeState | undefined> {
  if (!existsSync(stateFile(dataDir))) return undefined;
  if (!(await isInstanceLockHeld(dataDir))) return undefined;
  return readRuntimeFile(dataDir);
}

const childrenFile = (dataDir: string) => join(dataDir, 'children.json');

/**
 * The service processes of a running stack. A stack killed with SIGKILL cannot stop them, so the next
 * start finds them here and stops them before it starts its own.
 */
export function recordChildren(dataDir: string, pids: number[]): void {
  writeFileSync(childrenFile(dataDir), JSON.stringify({ parent: process.pid, pids }));
}

export function clearChildren(dataDir: string): void {
  rmSync(childrenFile(dataDir), { force: true });
}

/** Stops the children a dead stack left running; returns how many. Only processes whose command line names this data dir are touched (a pid may have been reused). */
export function reapOrphanedChildren(dataDir: string): number {
  if (!existsSync(childrenFile(dataDir))) return 0;
  let reaped = 0;
  try {
    const { pids } = JSON.parse(readFileSync(childrenFile(dataDir), 'utf8')) as { pids: number[] };
    for (const pid of pids) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (!cmdline.includes(dataDir)) continue;
      try {
        process.kill(pid, 'SIGKILL');
        reaped++;
      } catch {
        // Already gone.
      }
    }
  } finally {
    clearChildren(dataDir);
  }
  return reaped;
}
