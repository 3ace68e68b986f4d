/**
 * `npm start` as a user, a service manager or `docker stop` runs and stops it: SIGTERM goes to npm,
 * and the whole stack (the server, DynamoDB Local, s3rver) must stop with it, freeing the data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isInstanceLockHeld } from '#local/instance-lock';
import { startServe } from '#test-support/serve-process';

test('SIGTERM to npm start stops the server and every child process, and frees the data dir', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rs-npm-start-'));
  try {
    const service = await startServe(dataDir);
    expect((await fetch(`${service.apiUrl}/`)).status).toBe(200);
    expect(await isInstanceLockHeld(dataDir)).toBe(true);

    expect(await service.terminateLauncher()).toBe(true);
    expect(service.output()).toContain('SIGTERM: stopping');
    expect(await isInstanceLockHeld(dataDir)).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
