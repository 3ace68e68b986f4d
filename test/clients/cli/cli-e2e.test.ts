/**
 * The user CLI (clients/cli/src/main.ts) run as a child process against the local stack,
 * as a customer would: login with a key, a product with a demo (direct upload) waited for while
 * `webhooks listen` forwards its event to a local URL, hook ideas, a prompt video waited for and
 * downloaded, usage as JSON; and the exit codes of a bad key, an unknown product and a missing argument.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath, ffprobePath } from '#render';
import { bundledEntry } from '#test-support/bundled-entry';
import { makeFixture } from '#test-support/media-fixtures';
import { startTestStack, type TestStack } from '#test-support/local-stack';
import { startLoopbackServer } from '#test-support/loopback-server';
import { verifyWebhook } from '#client/webhooks';

const exec = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let t: TestStack;
let dir: string;
let demo: string;
let env: NodeJS.ProcessEnv;
/** clients/cli/src/main.ts bundled once for the suite (see bundled-entry.ts). */
let main: string;

async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [main, ...args], { cwd: ROOT, env: { ...env, ...extraEnv } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  t = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'rs-user-cli-'));
  main = await bundledEntry('clients/cli/src/main.ts', dir, 'esm');
  // Run from the repository root; files are named by absolute path.
  // No RS_API_KEY / RS_BASE_URL from the outside: the CLI's own config file only.
  const { RS_API_KEY: _key, RS_BASE_URL: _url, ...rest } = process.env;
  env = { ...rest, REACTION_STUDIO_CONFIG: join(dir, 'config.json'), RS_POLL_INTERVAL_MS: '300' };
  demo = await makeFixture('demo-mp4');
}, 120_000);
afterAll(async () => {
  await t?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('login, a product with a demo, hooks, a video waited for and downloaded, usage', async () => {
  const { key } = await t.newAccount();
  const login = await cli(['login', '--key', key, '--base-url', t.stack.apiUrl]);
  expect(login).toMatchObject({ code: 0, stderr: '' });
  expect(login.stdout).toMatch(/^signed in to /);
  expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);

  // Events forwarded to a local URL while the product's demo is made (the API itself delivers only to https).
  const receiver = await startLoopbackServer();
  receiver.route(() => ({ status: 204 }));
  const listener = spawn(process.execPath, [main, 'webhooks', 'listen', '--forward-to', `${receiver.url}/local`], { cwd: ROOT, env });
  let listenErr = '';
  listener.stderr.on('data', (chunk: Buffer) => (listenErr += chunk.toString()));
  let product: { id: number };
  const exited = new Promise<number | null>((done) => listener.once('exit', (code) => done(code)));
  try {
    await until('listen is ready', () => (listenErr.includes('Ready:') ? true : undefined));
    const secret = (await cli(['webhooks', 'listen', '--print-secret'])).stdout.trim();
    expect(listenErr).toContain(`Signing secret: ${secret}`);

    const created = await cli(['products', 'create', '--name', 'Glow Serum', '--demo', demo, '--wait', '--json']);
    product = JSON.parse(created.stdout);
    // Without a terminal, still one line that names the product waited for.
    expect(created).toMatchObject({ code: 0, stderr: `product ${product.id}: waiting for its demo\n` });
    expect(product).toMatchObject({ id: expect.any(Number), name: 'Glow Serum', demo_video: { status: 'ready' } });

    const forwarded = await until('the demo event forwarded', () => receiver.seen[0]);
    const event = verifyWebhook<{ id: number }>(JSON.stringify(forwarded.body), forwarded.headers as Record<string, string>, secret);
    expect(event).toMatchObject({ type: 'product.demo.ready', data: { id: product.id } });
    listener.kill('SIGINT');
    expect(await exited).toBe(0);
  } finally {
    listener.kill('SIGKILL');
    await receiver.close();
  }

  const listed = await cli(['products', 'list']);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain('Glow Serum');

  const hooks = await cli(['hooks', String(product.id)]);
  expect(hooks.code).toBe(0);
  expect(hooks.stdout.trim().split('\n')).toHaveLength(10);

  const made = await cli(['videos', 'create', '--product', String(product.id), '--prompt', 'shocked by the price', '--hook', 'Wait for it', '--wait', '--out', join(dir, 'out.mp4')]);
  // stderr is not a terminal here: no progress line, only the job's id.
  expect(made).toMatchObject({ code: 0, stderr: expect.stringMatching(/^job \d+ queued: waiting for its video\n$/) });
  const path = made.stdout.trim();
  expect(path).toBe(join(dir, 'out.mp4'));
  expect(existsSync(path)).toBe(true);
  const probe = await exec(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]);
  expect(Number(probe.stdout.trim())).toBeGreaterThan(3);

  const usage = await cli(['usage', '--json']);
  expect(usage.code).toBe(0);
  expect(JSON.parse(usage.stdout)).toMatchObject({ plan: { name: 'pro' }, allowance: { used: 1 } });

  const videos = await cli(['videos', 'list', '--json']);
  expect(JSON.parse(videos.stdout)).toEqual([expect.objectContaining({ product_id: product.id })]);

  // One reaction under two hooks in one batch, waited for: both videos made, in variant order.
  const batch = await cli(['videos', 'batch', '--product', String(product.id), '--prompt', 'laughing so hard', '--hook', 'Day one', '--hook', 'Day thirty', '--wait', '--json']);
  expect(batch).toMatchObject({ code: 0, stderr: expect.stringMatching(/^batch \d+: jobs \d+, \d+: waiting for their videos\n$/) });
  expect(JSON.parse(batch.stdout)).toMatchObject({
    product_id: product.id,
    counts: { done: 2, failed: 0 },
    jobs: [
      { hook_text: 'Day one', status: 'done', video_id: expect.any(Number) },
      { hook_text: 'Day thirty', status: 'done', video_id: expect.any(Number) },
    ],
  });
  const table = await cli(['videos', 'batch', '--product', String(product.id), '--prompt', 'laughing', '--hook', 'Not waited for']);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^batch \d+: 1 (queued|processing)\nJOB +STATUS +HOOK/);
}, 300_000);

test('exit codes: a bad key 3, an unknown product 4, a missing --product 2', async () => {
  const { key } = await t.newAccount();
  const badLogin = await cli(['login', '--key', 'rsk_not_a_real_key', '--base-url', t.stack.apiUrl]);
  expect(badLogin.code).toBe(3);
  expect(badLogin.stderr).toBe(
    `${badLogin.stderr.split('\n')[0]}\n  see ${t.stack.apiUrl}/docs/errors#unauthorized\n`,
  );
  expect(badLogin.stderr).toMatch(/^error: .*\(unauthorized, request [^)]+\)\n/);

  const badEnv = await cli(['usage', '--json'], { RS_API_KEY: 'rsk_not_a_real_key', RS_BASE_URL: t.stack.apiUrl });
  expect(badEnv.code).toBe(3);
  expect(JSON.parse(badEnv.stdout)).toMatchObject({ code: 'unauthorized', request_id: expect.any(String), doc_url: `${t.stack.apiUrl}/docs/errors#unauthorized` });

  const unknown = await cli(['videos', 'create', '--product', '99999999', '--prompt', 'laughing'], { RS_API_KEY: key, RS_BASE_URL: t.stack.apiUrl });
  expect(unknown.code).toBe(4);
  expect(unknown.stderr).toMatch(/^error: .*not_found/);

  const missing = await cli(['videos', 'create', '--prompt', 'laughing'], { RS_API_KEY: key, RS_BASE_URL: t.stack.apiUrl });
  expect(missing).toEqual({ code: 2, stdout: '', stderr: 'error: --product is required\n' });
}, 120_000);

test('music: a track added from a file (a direct upload), listed after the built-in ones, deleted; a built-in one cannot be', async () => {
  const { key } = await t.newAccount();
  const as = { RS_API_KEY: key, RS_BASE_URL: t.stack.apiUrl };
  const song = join(dir, 'Summer Song.mp3');
  await exec(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=3', '-c:a', 'libmp3lame', '-y', song]);

  const added = await cli(['music', 'add', song, '--json'], as);
  expect(added.code).toBe(0);
  const track = JSON.parse(added.stdout);
  expect(track).toMatchObject({ id: expect.stringMatching(/^t\d+$/), name: 'Summer Song', built_in: false });

  const listed = await cli(['music', 'list'], as);
  expect(listed.code).toBe(0);
  const lines = listed.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^ID\s+NAME\s+LENGTH\s+KIND$/);
  expect(lines[1]).toMatch(/^sunny-pop\s+Sunny Pop\s+1:00\s+built-in, upbeat$/);
  expect(lines.at(-1)).toMatch(new RegExp(`^${track.id}\\s+Summer Song\\s+0:03\\s+yours$`));

  expect(await cli(['music', 'delete', track.id], as)).toEqual({ code: 0, stdout: `deleted ${track.id}\n`, stderr: '' });
  expect((await cli(['music', 'delete', track.id], as)).code).toBe(4);
  expect((await cli(['music', 'delete', 'sunny-pop'], as)).code).toBe(5);
}, 120_000);
