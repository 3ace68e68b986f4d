import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { bundledEntry } from '#test-support/bundled-entry';
import { apiClient, expectError, startTestStack, type TestStack } from '#test-support/local-stack';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');

// bin/cli.ts, bundled once for the suite (see bundled-entry.ts); run from the repository root as before.
let bundleDir: string;
let CLI: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'rs-admin-cli-'));
  CLI = await bundledEntry('bin/cli.ts', bundleDir, 'cjs');
});
afterAll(() => {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, STACK_NAME: '' },
    });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, json: JSON.parse(failed.stdout) };
  }
}

describe('the admin CLI against a running local stack', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(() => t?.stop());

  test('accounts create, keys create / list / revoke print one JSON object each and take effect at once', async () => {
    const account = await cli(t.dataDir, 'accounts', 'create', '--name', 'Acme', '--plan', 'starter');
    expect(account).toEqual({ code: 0, json: { id: expect.any(Number), name: 'Acme', plan: 'starter' } });

    const key = await cli(t.dataDir, 'keys', 'create', '--account', String(account.json.id), '--scopes', 'read');
    expect(key.json).toMatchObject({ id: expect.any(Number), key: expect.stringMatching(/^rsk_/), prefix: key.json.key.slice(0, 12) });

    const api = apiClient(t.stack.apiUrl, key.json.key);
    expect((await api.get('/usage')).body.data.plan.name).toBe('starter');
    expectError(await api.post('/products', { name: 'x' }), 403, 'forbidden');

    const listed = await cli(t.dataDir, 'keys', 'list', '--account', String(account.json.id));
    expect(listed.json.keys).toEqual([
      expect.objectContaining({ id: key.json.id, prefix: key.json.prefix, scopes: ['read'], revoked_at: null }),
    ]);
    expect(JSON.stringify(listed.json)).not.toContain(key.json.key);

    expect((await cli(t.dataDir, 'keys', 'revoke', '--id', String(key.json.id))).json).toEqual({ id: key.json.id, revoked: true });
    expectError(await api.get('/usage'), 401, 'unauthorized');
  });

  test('counters recount counts each collection of an account from its items and says what the counter said', async () => {
    const { accountId, api } = await t.newAccount();
    for (const name of ['One', 'Two', 'Three']) expect((await api.post('/products', { name })).status).toBe(201);
    const recounted = await cli(t.dataDir, 'counters', 'recount', '--account', String(accountId), '--collection', 'products,videos');
    expect(recounted).toEqual({
      code: 0,
      json: { account: accountId, collections: { products: { before: 3, after: 3 }, videos: { before: null, after: 0 } } },
    });
    expect((await api.get('/products?per_page=2&page=2')).body.meta.total).toBe(3);
    expect((await cli(t.dataDir, 'counters', 'recount', '--account', String(accountId), '--collection', 'jobs')).code).toBe(2);
  });

  test('bad arguments exit non-zero with a JSON error', async () => {
    expect(await cli(t.dataDir, 'accounts', 'create')).toEqual({ code: 2, json: { error: '--name is required' } });
    expect((await cli(t.dataDir, 'accounts', 'create', '--name', 'x', '--plan', 'gold')).code).toBe(2);
    expect((await cli(t.dataDir, 'keys', 'create', '--account', 'abc')).code).toBe(2);
    expect((await cli(t.dataDir, 'keys', 'create', '--account', '1', '--scopes', 'read,admin')).code).toBe(2);
    expect((await cli(t.dataDir, 'keys', 'revoke', '--id', '999999')).code).toBe(1);
    expect((await cli(t.dataDir, 'frobnicate')).code).toBe(2);
  });
});

describe('the admin CLI with no stack running', () => {
  test('works on the data dir directly, and a later start still seeds the demo account', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rs-cli-'));
    try {
      const account = await cli(dataDir, 'accounts', 'create', '--name', 'Offline');
      expect(account.json).toMatchObject({ name: 'Offline', plan: 'free' });
      const t = await startTestStack({ dataDir, services: 'own' });
      try {
        expect(t.stack.demo?.key).toMatch(/^rsk_/);
        const key = await cli(dataDir, 'keys', 'create', '--account', String(account.json.id));
        expect((await apiClient(t.stack.apiUrl, key.json.key).get('/usage')).body.data.plan.name).toBe('free');
      } finally {
        await t.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
