/**
 * Social connections end to end: the local HTTP server with the provider sandboxes the local runtime
 * starts (keys `sandbox_a_*` / `sandbox_b_*`), the key file under the data dir, and the admin CLI as a
 * separate process that finds both (key file and sandboxes) through the data dir.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ProviderASandbox, ProviderBSandbox } from '#local/sandboxes/index';
import { ProviderError, type SocialProvider } from '#ports/social-provider';
import { logger } from '#functions/logger';
import { bundledEntry } from '#test-support/bundled-entry';
import { expectError, startTestStack, type ApiClient, type ApiResponse, type TestStack } from '#test-support/local-stack';

const ROOT = resolve(__dirname, '..', '..');

let t: TestStack;
// bin/cli.ts, bundled once for the suite (see bundled-entry.ts); run from the repository root as before.
let bundleDir: string;
let CLI: string;
let sandbox: ProviderASandbox;
let sandboxB: ProviderBSandbox;
/** Every response body of the file, to prove no provider key ever comes back. */
const seen: string[] = [];
/**
 * Everything the service logged meanwhile (the structured logger writes to stdout and stderr), kept here instead
 * of printed: tests run with the logger silent, so this file turns it on for itself.
 */
const logged: string[] = [];
let captures: jest.SpyInstance[] = [];

beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'rs-connections-cli-'));
  [t, CLI] = await Promise.all([startTestStack({ sandboxes: {} }), bundledEntry('bin/cli.ts', bundleDir, 'cjs')]);
  expect(t.stack.sandboxes?.active).toEqual({ provider_a: true, provider_b: true });
  sandbox = t.stack.sandboxes!.providerA;
  sandboxB = t.stack.sandboxes!.providerB;
  logger.setLogLevel('INFO');
  // Warnings and errors go to stderr, the rest to stdout.
  captures = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof stream.write),
  );
}, 120_000);

afterAll(async () => {
  for (const capture of captures) capture.mockRestore();
  logger.setLogLevel((process.env.LOG_LEVEL as 'SILENT') ?? 'SILENT');
  await t?.stop();
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

/** Wraps a client so every answer is remembered for the no-leak assertion. */
function recording(api: ApiClient): ApiClient {
  const keep = async (response: Promise<ApiResponse>) => {
    const r = await response;
    seen.push(JSON.stringify(r.body ?? ''), JSON.stringify([...r.headers.entries()]));
    return r;
  };
  return {
    get: (path, headers) => keep(api.get(path, headers)),
    delete: (path) => keep(api.delete(path)),
    post: (path, json) => keep(api.post(path, json)),
    patch: (path, json) => keep(api.patch(path, json)),
    put: (path, json) => keep(api.put(path, json)),
    send: (method, path, init) => keep(api.send(method, path, init)),
  };
}

async function account(scopes?: ('read' | 'write' | 'publish')[]) {
  const created = await t.newAccount(scopes ? { scopes } : {});
  return { ...created, api: recording(created.api) };
}

let keySeq = 0;
const sandboxKey = () => `sandbox_a_e2e_${process.pid}_${++keySeq}_abcdef`;
const sandboxKeyB = () => `sandbox_b_e2e_${process.pid}_${++keySeq}_abcdef`;

describe('PUT /social/connections/{provider}', () => {
  test('connects with a key the provider accepts (201), lists its channels, and replaces it later (200)', async () => {
    const { api } = await account();
    const key = sandboxKey();
    const first = await api.put('/social/connections/provider_a', { api_key: key });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      provider: 'provider_a',
      status: 'active',
      key_hint: `…${key.slice(-4)}`,
      channels: expect.any(Array),
      connected_at: expect.any(String),
      synced_at: first.body.data.connected_at,
      last_error: null,
    });
    expect(first.body.data.channels.map((c: { platform: string }) => c.platform).sort()).toEqual(['facebook', 'instagram', 'tiktok', 'youtube']);
    for (const channel of first.body.data.channels) {
      expect(channel).toEqual({ id: expect.any(String), platform: expect.any(String), name: expect.any(String), username: expect.anything(), active: true });
    }

    const again = await api.put('/social/connections/provider_a', { api_key: sandboxKey(), profile_key: 'profile-2' });
    expect(again.status).toBe(200);
    expect(again.body.data.provider).toBe('provider_a');
  });

  test('accepts a form-encoded body too', async () => {
    const { api } = await account();
    const res = await api.send('PUT', '/social/connections/provider_a', {
      body: new URLSearchParams({ api_key: sandboxKey() }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
  });

  test('an unknown provider is a 400 naming the two providers', async () => {
    const { api } = await account();
    const res = await api.put('/social/connections/provider_c', { api_key: sandboxKey() });
    expectError(res, 400, 'bad_request');
    expect(res.body.error).toMatch(/provider_a, provider_b/);
  });

  test('a key the provider refuses is a 400 that does not echo it, and nothing is stored', async () => {
    const { api } = await account();
    const refused = 'not_a_sandbox_key_0123456789';
    const res = await api.put('/social/connections/provider_a', { api_key: refused });
    expectError(res, 400, 'bad_request');
    expect(res.body.error).toMatch(/the provider refused this key/i);
    expect(JSON.stringify(res.body)).not.toContain(refused);
    expect((await api.get('/social/connections')).body.data).toEqual([]);
  });

  test('bad bodies are 400s naming the field, never quoting the value', async () => {
    const { api } = await account();
    const cases: [unknown, RegExp][] = [
      [{}, /api_key/],
      [{ api_key: 'short' }, /api_key: must be 8 to 512 characters/],
      [{ api_key: 'x'.repeat(513) }, /api_key/],
      [{ api_key: 'sandbox_a_has space' }, /api_key: must be printable ASCII/],
      [{ api_key: 12345678 }, /api_key: must be a string/],
      [{ api_key: sandboxKey(), extra: 1 }, /unknown field/],
    ];
    for (const [body, message] of cases) {
      const res = await api.put('/social/connections/provider_a', body);
      expectError(res, 400, 'bad_request');
      expect(res.body.error).toMatch(message);
      expect(res.body.error).not.toContain('sandbox_a_has');
    }
    const b = await api.put('/social/connections/provider_b', { api_key: 'pfm_key_0123456789', profile_key: 'p' });
    expectError(b, 400, 'bad_request');
    expect(b.body.error).toMatch(/profile_key is only taken by provider_a/);
  });

  test('a provider that is rate limiting is a 429 with Retry-After, down a 503 with Retry-After; nothing is stored', async () => {
    const { api } = await account();
    sandbox.control.rateLimit(10, 600);
    const limited = await api.put('/social/connections/provider_a', { api_key: sandboxKey() });
    sandbox.control.clearFaults();
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // provider_b stands in for a provider that never answers in time.
    const down: Partial<SocialProvider> = {
      name: 'provider_b',
      listChannels: async () => {
        throw new ProviderError('provider_b', 'unavailable', 'provider_b answered 503', { status: 503, retryAfterS: 7 });
      },
    };
    t.social.use('provider_b', down as SocialProvider);
    try {
      const res = await api.put('/social/connections/provider_b', { api_key: 'pfm_key_0123456789' });
      expectError(res, 503, 'upstream_unavailable');
      expect(res.headers.get('retry-after')).toBe('7');
    } finally {
      t.social.reset();
    }
    expect((await api.get('/social/connections')).body.data).toEqual([]);
  });
});

describe('GET /social/connections', () => {
  test('lists every connected provider with its cached channels, no meta and no credentials', async () => {
    const { api } = await account();
    expect(await api.get('/social/connections')).toMatchObject({ status: 200, body: { data: [] } });
    const key = sandboxKey();
    await api.put('/social/connections/provider_a', { api_key: key, profile_key: 'my-profile-key-1' });
    const keyB = sandboxKeyB();
    const connectedB = await api.put('/social/connections/provider_b', { api_key: keyB });
    expect(connectedB.status).toBe(201);
    const res = await api.get('/social/connections');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('meta');
    expect(res.body.data.map((c: { provider: string }) => c.provider)).toEqual(['provider_a', 'provider_b']);
    // provider_b lists x as disconnected upstream: listed, inactive.
    const channelsB = res.body.data[1].channels as { id: string; platform: string; active: boolean }[];
    expect(channelsB.map((c) => [c.platform, c.active]).sort()).toEqual([
      ['facebook', true],
      ['instagram', true],
      ['tiktok', true],
      ['x', false],
      ['youtube', true],
    ]);
    for (const c of channelsB) expect(c.id).toMatch(/^spc_/);
    const text = JSON.stringify(res.body) + JSON.stringify(connectedB.body);
    // Post for Me hands out the networks' tokens with each account: they are never kept or shown.
    for (const secret of [key, keyB, 'my-profile-key-1', 'ciphertext', 'encrypted_key', 'sandbox_access_token_', 'sandbox_refresh_token_']) {
      expect(text).not.toContain(secret);
    }
  });

  test('a read-only key may list; connections of another account are not shown', async () => {
    const owner = await account();
    await owner.api.put('/social/connections/provider_a', { api_key: sandboxKey() });
    const reader = await account(['read']);
    expect((await reader.api.get('/social/connections')).body.data).toEqual([]);
  });
});

describe('scopes', () => {
  test('a key without publish cannot connect, sync or disconnect (403), and nothing changes', async () => {
    const { api } = await account(['read', 'write']);
    expectError(await api.put('/social/connections/provider_a', { api_key: sandboxKey() }), 403, 'forbidden');
    expectError(await api.post('/social/accounts/sync', { provider: 'provider_a' }), 403, 'forbidden');
    expectError(await api.delete('/social/connections/provider_a'), 403, 'forbidden');
    expect((await api.get('/social/connections')).body.data).toEqual([]);
  });
});

describe('POST /social/accounts/sync', () => {
  test('re-reads the channels and reports what was added and removed', async () => {
    const { api } = await account();
    const key = sandboxKey();
    const connected = (await api.put('/social/connections/provider_a', { api_key: key })).body.data;
    const idOf = (platform: string) => connected.channels.find((c: { platform: string }) => c.platform === platform).id;

    sandbox.control.linkPlatforms(key, ['tiktok', 'youtube', 'linkedin']);
    const res = await api.post('/social/accounts/sync', { provider: 'provider_a' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      provider: 'provider_a',
      status: 'active',
      channels: expect.any(Array),
      synced_at: expect.any(String),
      added: [expect.any(String)],
      removed: expect.arrayContaining([idOf('instagram'), idOf('facebook')]),
    });
    expect(res.body.data.removed).toHaveLength(2);
    expect(res.body.data.channels.map((c: { platform: string }) => c.platform).sort()).toEqual(['linkedin', 'tiktok', 'youtube']);
    expect(res.body.data.channels.find((c: { id: string }) => c.id === res.body.data.added[0]).platform).toBe('linkedin');
    expect(Date.parse(res.body.data.synced_at)).toBeGreaterThanOrEqual(Date.parse(connected.synced_at));

    const listed = (await api.get('/social/connections')).body.data[0];
    expect(listed.channels).toEqual(res.body.data.channels);
    expect(listed.synced_at).toBe(res.body.data.synced_at);

    const unchanged = await api.post('/social/accounts/sync', { provider: 'provider_a' });
    expect(unchanged.body.data).toMatchObject({ added: [], removed: [] });
  });

  test('provider_b: an account disconnected upstream stays listed, inactive; nothing added or removed', async () => {
    const { api } = await account();
    const key = sandboxKeyB();
    await api.put('/social/connections/provider_b', { api_key: key });
    sandboxB.control.setAccountStatus(key, 'tiktok', 'disconnected');
    const res = await api.post('/social/accounts/sync', { provider: 'provider_b' });
    expect(res.body.data).toMatchObject({ provider: 'provider_b', added: [], removed: [] });
    expect(res.body.data.channels.find((c: { platform: string }) => c.platform === 'tiktok').active).toBe(false);
  });

  test('a provider that is not connected is a 409 that says how to connect', async () => {
    const { api } = await account();
    const res = await api.post('/social/accounts/sync', { provider: 'provider_b' });
    expectError(res, 409, 'conflict');
    expect(res.body.error).toMatch(/PUT \/social\/connections\/provider_b/);
  });

  test('a missing or unknown provider is a 400', async () => {
    const { api } = await account();
    expectError(await api.post('/social/accounts/sync', {}), 400, 'bad_request');
    expectError(await api.post('/social/accounts/sync'), 400, 'bad_request');
    expectError(await api.post('/social/accounts/sync', { provider: 'provider_z' }), 400, 'bad_request');
  });

  test('a stored key the provider now refuses is a 409 "reconnect", and the connection shows error until reconnected', async () => {
    const { api } = await account();
    await api.put('/social/connections/provider_a', { api_key: sandboxKey() });
    const revoked: Partial<SocialProvider> = {
      name: 'provider_a',
      listChannels: async () => {
        throw new ProviderError('provider_a', 'auth', 'provider_a answered 401', { status: 401 });
      },
    };
    t.social.use('provider_a', revoked as SocialProvider);
    try {
      const res = await api.post('/social/accounts/sync', { provider: 'provider_a' });
      expectError(res, 409, 'conflict');
      expect(res.body.error).toMatch(/reconnect/);
    } finally {
      t.social.reset();
    }
    const listed = (await api.get('/social/connections')).body.data[0];
    expect(listed).toMatchObject({ status: 'error', last_error: { code: 'provider_refused_key', message: expect.stringMatching(/reconnect/) } });

    // Reconnecting (or a sync that works again) makes it healthy.
    expect((await api.post('/social/accounts/sync', { provider: 'provider_a' })).body.data.status).toBe('active');
    expect((await api.get('/social/connections')).body.data[0]).toMatchObject({ status: 'active', last_error: null });
  });
});

describe('DELETE /social/connections/{provider}', () => {
  test('removes the connection (200 {provider, deleted}), then 404; an unknown provider is 400', async () => {
    const { api } = await account();
    await api.put('/social/connections/provider_a', { api_key: sandboxKey() });
    expect(await api.delete('/social/connections/provider_a')).toMatchObject({ status: 200, body: { data: { provider: 'provider_a', deleted: true } } });
    expectError(await api.delete('/social/connections/provider_a'), 404, 'not_found');
    expect((await api.get('/social/connections')).body.data).toEqual([]);
    expectError(await api.post('/social/accounts/sync', { provider: 'provider_a' }), 409, 'conflict');
    expectError(await api.delete('/social/connections/nope'), 400, 'bad_request');
  });
});

// ---- the admin CLI, a separate process sharing the data dir's key file ----

function withoutProviderUrls(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PROVIDER_A_BASE_URL: _a, PROVIDER_B_BASE_URL: _b, ...rest } = env;
  return rest;
}

function cli(args: string[], stdin?: string): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args, '--json'], {
      cwd: ROOT,
      // No provider URLs: the CLI finds the running stack's sandboxes through the data dir.
      env: { ...withoutProviderUrls(process.env), DATA_DIR: t.dataDir, STACK_NAME: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolvePromise({ code: code ?? -1, json, stdout, stderr });
    });
    child.stdin.end(stdin ?? '');
  });
}

describe('npm run cli -- connections', () => {
  test('set checks the key with the provider, stores it sealed with the server\'s key file, never prints it; list shows it', async () => {
    const { accountId, api } = await account();
    const key = sandboxKey();
    const set = await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_a', '--api-key', key]);
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ account: accountId, provider: 'provider_a', channels: expect.any(Array) });
    expect(set.json.channels).toHaveLength(4);
    expect(set.stdout + set.stderr).not.toContain(key);

    // The server opens what the CLI sealed: a sync needs the stored key.
    const synced = await api.post('/social/accounts/sync', { provider: 'provider_a' });
    expect(synced.status).toBe(200);
    expect(synced.body.data.channels).toEqual(set.json.channels);

    const listed = await cli(['connections', 'list', '--account', String(accountId)]);
    expect(listed.code).toBe(0);
    expect(listed.json.connections).toEqual([expect.objectContaining({ provider: 'provider_a', status: 'active', channels: set.json.channels })]);
    expect(listed.stdout).not.toContain(key);

    const keyFile = statSync(join(t.dataDir, 'secrets', 'connection.key'));
    expect(keyFile.mode & 0o777).toBe(0o600);
    expect(keyFile.size).toBe(32);
  });

  test('--api-key - reads the key from stdin', async () => {
    const { accountId } = await account();
    const key = sandboxKey();
    const set = await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_a', '--api-key', '-', '--profile-key', 'team-1'], `${key}\n`);
    expect(set).toMatchObject({ code: 0, json: { account: accountId, provider: 'provider_a', created: true } });
    expect(set.stdout).not.toContain(key);
  });

  test('--x-api-key and --x-api-secret store the owner\'s X app for provider_a, never printed; half of it exits 2', async () => {
    const { accountId } = await account();
    const base = ['connections', 'set', '--account', String(accountId), '--provider', 'provider_a', '--api-key', sandboxKey()];
    const set = await cli([...base, '--x-api-key', 'x-app-key-123', '--x-api-secret', 'x-app-secret-456']);
    expect(set).toMatchObject({ code: 0, json: { account: accountId, provider: 'provider_a' } });
    expect(set.stdout + set.stderr).not.toMatch(/x-app-(key|secret)/);
    const half = await cli([...base, '--x-api-key', 'x-app-key-123']);
    expect(half.code).toBe(2);
    expect(half.json.error).toMatch(/--x-api-key and --x-api-secret: give both/);
    expect((await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_b', '--api-key', sandboxKeyB(), '--x-api-key', 'k', '--x-api-secret', 's'])).json.error).toMatch(
      /--x-api-key, --x-api-secret are only taken by provider_a/,
    );
  }, 180_000);

  test('set works for provider_b through its sandbox too', async () => {
    const { accountId } = await account();
    const key = sandboxKeyB();
    const set = await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_b', '--api-key', key]);
    expect(set).toMatchObject({ code: 0, json: { account: accountId, provider: 'provider_b' } });
    expect(set.json.channels).toHaveLength(5);
    expect(set.stdout).not.toContain(key);
    expect(set.stdout).not.toContain('sandbox_access_token_');
  });

  test('a refused key exits 1 with a JSON error that does not quote it; bad arguments exit 2', async () => {
    const { accountId } = await account();
    const refused = 'definitely_not_valid_0123';
    const res = await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_a', '--api-key', refused]);
    expect(res.code).toBe(1);
    expect(res.json.error).toMatch(/the provider refused this key/);
    expect(res.stdout + res.stderr).not.toContain(refused);
    expect((await cli(['connections', 'list', '--account', String(accountId)])).json.connections).toEqual([]);

    expect((await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_c', '--api-key', sandboxKey()])).code).toBe(2);
    expect((await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_a'])).code).toBe(2);
    const short = await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_a', '--api-key', 'abc']);
    expect(short.code).toBe(2);
    expect(short.json.error).toMatch(/--api-key must be 8 to 512 characters/);
    expect((await cli(['connections', 'set', '--account', String(accountId), '--provider', 'provider_b', '--api-key', 'pfm_key_0123456789', '--profile-key', 'x'])).code).toBe(2);
    expect((await cli(['connections', 'list', '--account', 'x'])).code).toBe(2);
    expect((await cli(['connections', 'list', '--account', '99999999'])).code).toBe(1);
  }, 180_000);
});

describe('secrets', () => {
  test('no response and no log line of this file carried a provider key', () => {
    const everything = [...seen, ...logged].join('\n');
    expect(seen.length).toBeGreaterThan(20);
    // The capture works: the service did log these requests.
    expect(logged.join('')).toContain('social connection stored');
    expect(everything).not.toMatch(/sandbox_[ab]_e2e_/);
    for (const secret of ['my-profile-key-1', 'not_a_sandbox_key_0123456789', 'sandbox_access_token_', 'sandbox_refresh_token_']) {
      expect(everything).not.toContain(secret);
    }
  });
});
