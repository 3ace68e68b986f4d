import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireInstanceLock, instanceLockName, isInstanceLockHeld } from '#local/instance-lock';
import { readRuntimeState, type RuntimeState } from '#local/runtime-state';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const procState = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};

/**
 * SIGKILL, then wait until the process is a zombie and the kernel has finished closing its files
 * (the last close of a socket can trail the zombie state by a few milliseconds).
 */
async function killToZombie(pid: number, dataDir: string): Promise<void> {
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 100 && procState(pid) !== 'Z'; i++) await sleep(20);
  expect(procState(pid)).toBe('Z');
  for (let i = 0; i < 100 && (await isInstanceLockHeld(dataDir)); i++) await sleep(20);
}

/**
 * A process holding the data dir's lock whose parent never reaps it: `sh` starts the holder in the
 * background, then becomes `sleep`, which does not know it has a child. Killed, the holder stays a
 * zombie, as a killed stack does in a container without a reaping init.
 */
async function unreapedLockHolder(dataDir: string): Promise<{ holderPid: number; parent: ChildProcess }> {
  const script = "require('net').createServer().listen({ path: '\\0' + process.argv[1] }, () => console.log(process.pid))";
  const parent = spawn('sh', ['-c', `"${process.execPath}" -e "${script}" "$0" & exec sleep 600`, instanceLockName(dataDir).slice(1)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const holderPid = await new Promise<number>((resolve, reject) => {
    parent.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    parent.once('exit', (code) => reject(new Error(`the lock holder's parent exited (${code})`)));
  });
  return { holderPid, parent };
}

describe('the single-instance lock of a data dir', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rs-lock-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  test('is held by one holder at a time, and free again once released', async () => {
    const first = await acquireInstanceLock(dataDir);
    expect(first).toBeDefined();
    expect(await acquireInstanceLock(dataDir)).toBeUndefined();
    expect(await isInstanceLockHeld(dataDir)).toBe(true);

    await first!.release();
    expect(await isInstanceLockHeld(dataDir)).toBe(false);
    const second = await acquireInstanceLock(dataDir);
    expect(second).toBeDefined();
    await second!.release();
  });

  test('is one lock for the data dir however its path is spelled (symlinks, trailing parts)', async () => {
    const link = `${dataDir}-link`;
    symlinkSync(dataDir, link);
    try {
      expect(instanceLockName(link)).toBe(instanceLockName(dataDir));
      expect(instanceLockName(join(dataDir, 'x', '..'))).toBe(instanceLockName(dataDir));
      expect(instanceLockName(dataDir)).not.toBe(instanceLockName(`${dataDir}-other`));
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('is released by the kernel when its holder is killed, even while the holder stays an unreaped zombie', async () => {
    const { holderPid, parent } = await unreapedLockHolder(dataDir);
    try {
      expect(await isInstanceLockHeld(dataDir)).toBe(true);
      expect(await acquireInstanceLock(dataDir)).toBeUndefined();

      await killToZombie(holderPid, dataDir);
      // What the old pid check saw: signal 0 reaches a zombie, so the stack looked alive forever.
      expect(() => process.kill(holderPid, 0)).not.toThrow();

      expect(await isInstanceLockHeld(dataDir)).toBe(false);
      const lock = await acquireInstanceLock(dataDir);
      expect(lock).toBeDefined();
      await lock!.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  test('decides whether runtime.json describes a running stack: a zombie pid in it does not count', async () => {
    const { holderPid, parent } = await unreapedLockHolder(dataDir);
    try {
      const state: RuntimeState = {
        pid: holderPid,
        apiUrl: 'http://127.0.0.1:1/api/v1',
        dynamoEndpoint: 'http://127.0.0.1:2',
        s3Endpoint: 'http://127.0.0.1:3',
        tableName: 't',
        bucketName: 'b',
      };
      writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify(state));
      expect(await readRuntimeState(dataDir)).toEqual(state);

      await killToZombie(holderPid, dataDir);
      expect(() => process.kill(holderPid, 0)).not.toThrow();
      expect(await readRuntimeState(dataDir)).toBeUndefined();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
