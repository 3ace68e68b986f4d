import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkJava } from '#local/dynamodb-local';
import getPort from 'get-port';
import pWaitFor from 'p-wait-for';
import { apiClient, startTestStack } from '#test-support/local-stack';

const ROOT = resolve(__dirname, '..', '..', '..');

describe('the local runtime', () => {
  test('keeps its data across restarts and seeds the demo account, its key and its studio login only on the first start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rs-restart-'));
    try {
      const first = await startTestStack({ dataDir });
      const demoKey = first.stack.demo!.key;
      expect(demoKey).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
      const demoLogin = first.stack.demo!.login;
      expect(demoLogin).toEqual({ email: 'demo@example.com', password: expect.stringMatching(/^demo-[\w-]{16}$/) });
      const created = await apiClient(first.stack.apiUrl, demoKey).post('/products', { name: 'Survivor' });
      expect(created.status).toBe(201);
      await first.stop();

      const second = await startTestStack({ dataDir });
      try {
        expect(second.stack.demo).toBeUndefined();
        const listed = await apiClient(second.stack.apiUrl, demoKey).get('/products');
        expect(listed.body.data.map((p: { name: string }) => p.name)).toEqual(['Survivor']);
        expect((await apiClient(second.stack.apiUrl, demoKey).get('/usage')).body.data.plan.name).toBe('pro');
        const signedIn = await apiClient(second.stack.apiUrl).post('/auth/login', demoLogin);
        expect(signedIn.status).toBe(200);
        expect(signedIn.body.data.account).toMatchObject({ name: 'demo', plan: 'pro' });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a sample product whose clip was still being made when the stack went down is finished by the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rs-restart-'));
    try {
      // The first stack never hands the clip to its worker, as when it is killed while drawing it.
      const first = await startTestStack({
        dataDir,
        adjustDependencies: (built) => ({ ...built, tasks: { dispatch: async (task) => (task.type === 'sample-demo' ? undefined : built.tasks.dispatch(task)) } }),
      });
      const key = first.stack.demo!.key;
      const created = await apiClient(first.stack.apiUrl, key).post('/products/sample', {});
      expect(created.body.data.demo_video).toMatchObject({ status: 'processing' });
      await first.stop();

      const second = await startTestStack({ dataDir });
      try {
        const api = apiClient(second.stack.apiUrl, key);
        let demo: { status: string } | undefined;
        await pWaitFor(async () => (demo = (await api.get(`/products/${created.body.data.id}`)).body.data.demo_video).status !== 'processing', { interval: 200, timeout: 60_000 });
        expect(demo).toMatchObject({ status: 'ready', duration_s: expect.any(Number), error: null });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('refuses a second stack on the same data dir, naming the running one', async () => {
    const t = await startTestStack();
    try {
      await expect(startTestStack({ dataDir: t.dataDir })).rejects.toThrow(`A local stack is already running on ${t.dataDir}: its API is ${t.stack.apiUrl}`);
    } finally {
      await t.stop();
    }
  });

  test('without java on the PATH the message says what to install', () => {
    expect(() => checkJava({ ...process.env, PATH: '/nonexistent' })).toThrow(/Java was not found.*Java 17/);
  });

  test('npm start serves the API, prints the demo key once, and SIGTERM stops every child process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rs-serve-'));
    const port = await getPort({ host: '127.0.0.1' });
    const server = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'bin', 'serve.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      server.stderr.on('data', (c) => (output += c));
      await new Promise<void>((resolveReady, reject) => {
        server.stdout.on('data', (chunk) => {
          output += chunk;
          if (output.includes('Ctrl-C stops everything')) resolveReady();
        });
        server.once('exit', () => reject(new Error(`server exited: ${output}`)));
      });
      const key = /rsk_[A-Za-z0-9_-]{43}/.exec(output)?.[0];
      expect(key).toBeDefined();
      expect(output.match(/rsk_[A-Za-z0-9_-]{43}/g)!.length).toBeGreaterThanOrEqual(1);
      const res = await apiClient(`http://127.0.0.1:${port}/api/v1`, key).get('/usage');
      expect(res.status).toBe(200);

      const children = descendants(server.pid!);
      expect(children.length).toBeGreaterThanOrEqual(2);
      const exited = new Promise<number | null>((r) => server.once('exit', (code) => r(code)));
      process.kill(serverProcessPid(server.pid!), 'SIGTERM');
      expect(await exited).toBe(0);
      for (const pid of children) expect(isAlive(pid)).toBe(false);
    } finally {
      server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** tsx runs the script in a child node process; the signal goes to the process running serve.ts. */
function serverProcessPid(tsxPid: number): number {
  const kids = childrenOf(tsxPid);
  return kids.length > 0 ? kids[0]! : tsxPid;
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function descendants(pid: number): number[] {
  const direct = childrenOf(pid);
  return direct.flatMap((child) => [child, ...descendants(child)]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).startsWith('Z');
  } catch {
    return false;
  }
}
