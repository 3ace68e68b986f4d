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

test('npm start serves the studio beside the API on one origin, and prints where it is and the demo login', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rs-npm-start-'));
  try {
    const service = await startServe(dataDir);
    try {
      const studioUrl = /The studio \(sign in in a browser\) on (\S+)/.exec(service.output())?.[1];
      expect(studioUrl).toBe(`${new URL(service.apiUrl).origin}/`);
      expect(service.output()).toMatch(/studio login, also shown only this once: demo@example\.com \/ \S+/);
      for (const page of ['', 'jobs/12', 'settings']) {
        const res = await fetch(`${studioUrl}${page}`);
        expect({ page, status: res.status, type: res.headers.get('content-type') }).toEqual({ page, status: 200, type: 'text/html;charset=utf-8' });
        expect(await res.text()).toContain('<div id="root"></div>');
        expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(res.headers.get('x-frame-options')).toBe('DENY');
      }
      // The API keeps its own answers under its prefix, unknown paths included.
      const unknown = await fetch(`${service.apiUrl}/no-such-thing`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
