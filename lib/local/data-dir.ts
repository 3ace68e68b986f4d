/**
 * The data dir holds everything an attacker on the machine would want: the table (API-key hashes,
 * sealed provider credentials), the media, and the key file that unseals those credentials. So it is
 * private to its owner.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { localConnectionKeyFile } from '#adapters/crypto/credential-cipher';

const PRIVATE_DIR = 0o700;
const GROUP_OR_OTHER = 0o077;

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/**
 * Creates the data dir 0700. One that already exists with group or world bits is narrowed to 0700,
 * with a line in the log: the stack is its only user, and a data dir made by an older version (which
 * created it with the umask, typically 0755) would otherwise stay readable by every local user. When
 * it cannot be narrowed (owned by someone else), the start goes on with a warning: the files that
 * matter are checked one by one (`checkSecretFiles`).
 */
export function prepareDataDir(dataDir: string, log: (line: string) => void): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const mode = statSync(dataDir).mode;
  if ((mode & GROUP_OR_OTHER) === 0) return;
  try {
    chmodSync(dataDir, PRIVATE_DIR);
    log(`data dir ${dataDir} was ${octal(mode)}: narrowed to 0700 (it holds API-key hashes, credentials and media)`);
  } catch (error) {
    log(`warning: data dir ${dataDir} is ${octal(mode)} and could not be narrowed to 0700 (${(error as Error).message}); other local users may read it`);
  }
}

/**
 * Refuses a local secrets file that others on the machine may read or replace. The file is created
 * 0600 (credential-cipher), so wider bits mean someone changed them, and every credential sealed
 * with it should be treated as exposed; the stack does not silently fix that.
 */
export function checkSecretFiles(dataDir: string): void {
  const file = localConnectionKeyFile(dataDir);
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // Created 0600 on first use.
    throw error;
  }
  if ((mode & GROUP_OR_OTHER) !== 0) {
    throw new Error(
      `the connection key file ${file} is ${octal(mode)}, open to other users of this machine; it must be 0600. ` +
        `Run \`chmod 600 ${file}\` and, since others could read it, reconnect the social accounts whose credentials it sealed.`,
    );
  }
}
