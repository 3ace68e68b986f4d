/**
 * One DynamoDB Local (in memory) and one s3rver for the whole jest run, started before the workers
 * and stopped after them. Suites isolate themselves by table and bucket names (test/support/services.ts);
 * only suites about process life (SIGKILL, restart, `npm start`) start service processes of their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ManagedChild } from '#local/child-process';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { startS3Local } from '#local/s3-local';
import { SERVICES_ENV } from '../services';

interface RunningServices {
  children: ManagedChild[];
  s3Dir: string;
}

// globalSetup and globalTeardown run in jest's parent process: a global is how the one hands to the other.
const HANDOVER = Symbol.for('reaction-studio.test-services');
type WithServices = typeof globalThis & { [HANDOVER]?: RunningServices };

export async function startSharedServices(): Promise<void> {
  const s3Dir = mkdtempSync(join(tmpdir(), 'rs-test-s3-'));
  const [db, s3] = await Promise.all([startDynamoDbLocal({}), startS3Local({ directory: s3Dir })]);
  (globalThis as WithServices)[HANDOVER] = { children: [db.child, s3.child], s3Dir };
  // Workers are forked after global setup and inherit this environment.
  process.env[SERVICES_ENV.dynamoEndpoint] = db.endpoint;
  process.env[SERVICES_ENV.s3Endpoint] = s3.endpoint;
}

export async function stopSharedServices(): Promise<void> {
  const running = (globalThis as WithServices)[HANDOVER];
  if (!running) return;
  await Promise.all(running.children.map((child) => child.stop()));
  rmSync(running.s3Dir, { recursive: true, force: true });
}
