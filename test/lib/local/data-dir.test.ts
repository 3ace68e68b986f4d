import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { localConnectionKeyFile } from '#adapters/crypto/credential-cipher';
import { checkSecretFiles, prepareDataDir } from '#local/data-dir';
import { isInstanceLockHeld } from '#local/instance-lock';
import { startLocalStack } from '#local/runtime';

const modeOf = (path: string) => statSync(path).mode & 0o777;

function writeKeyFile(dataDir: string, mode: number): string {
  const file = localConnectionKeyFile(dataDir);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, randomBytes(32), { mode: 0o600 });
  chmodSync(file, mode);
  return file;
}

describe('the data dir is private to its owner', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'rs-datadir-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  test('a new data dir is created 0700, with nothing logged', () => {
    const dataDir = join(scratch, 'nested', 'data');
    const log: string[] = [];
    prepareDataDir(dataDir, (line) => log.push(line));
    expect(modeOf(dataDir)).toBe(0o700);
    expect(log).toEqual([]);
  });

  test('an existing data dir open to group or world is narrowed to 0700, and the log says so', () => {
    const dataDir = join(scratch, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const log: string[] = [];
    prepareDataDir(dataDir, (line) => log.push(line));
    expect(modeOf(dataDir)).toBe(0o700);
    expect(log).toEqual([expect.stringMatching(/was 0755: narrowed to 0700/)]);
  });

  test('a connection key file readable or writable by others is refused, naming the file and the fix', () => {
    const dataDir = join(scratch, 'data');
    expect(() => checkSecretFiles(dataDir)).not.toThrow(); // None yet: it is created 0600 on first use.
    const file = writeKeyFile(dataDir, 0o600);
    expect(() => checkSecretFiles(dataDir)).not.toThrow();
    for (const mode of [0o644, 0o640, 0o604, 0o620]) {
      chmodSync(file, mode);
      expect(() => checkSecretFiles(dataDir)).toThrow(`${file} is 0${mode.toString(8)}, open to other users of this machine; it must be 0600. Run \`chmod 600 ${file}\``);
    }
  });

  test('a stack refuses to start on a world-readable connection key before it starts anything, and starts once it is 0600', async () => {
    const dataDir = join(scratch, 'data');
    const file = writeKeyFile(dataDir, 0o644);
    await expect(startLocalStack({ dataDir, port: 0 })).rejects.toThrow(/connection key file .* is 0644.*chmod 600/);
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(await isInstanceLockHeld(dataDir)).toBe(false);

    chmodSync(file, 0o600);
    const stack = await startLocalStack({ dataDir, port: 0, http: false });
    await stack.stop();
  }, 120_000);
});
