/** Where a running local stack says how to reach it, so the CLI can find it through the data dir. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface RuntimeState {
  pid: number;
  apiUrl: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
}

export const LOCAL_TABLE = 'reaction-studio';
export const LOCAL_BUCKET = 'reaction-studio-media';

export const dataDirOf = (dir = process.env.DATA_DIR ?? '.data') => resolve(dir);
const stateFile = (dataDir: string) => join(dataDir, 'runtime.json');

export function writeRuntimeState(dataDir: string, state: RuntimeState): void {
  writeFileSync(stateFile(dataDir), JSON.stringify(state, null, 2));
}

export function clearRuntimeState(dataDir: string): void {
  rmSync(stateFile(dataDir), { force: true });
}

/** The state of a stack that is still running, or undefined. */
export function readRuntimeState(dataDir: string): RuntimeState | undefined {
  if (!existsSync(stateFile(dataDir))) return undefined;
  const state = JSON.parse(readFileSync(stateFile(dataDir), 'utf8')) as RuntimeState;
  try {
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined;
  }
}
