/**
 * The user CLI's commands against a scripted API on loopback (no stack): --version; login reading its
 * key from standard input; --wait saying the job's id on stderr with no terminal, on create, approve
 * (the video downloaded) and regenerate (the preview's URL); files that cannot be read or written
 * named with the reason; and `webhooks listen` forwarding the account's new events, signed with its
 * own secret, to a local URL.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { verifyWebhook } from '#client/webhooks';
import { readConfig } from '#cli/config';
import { run } from '#cli/run';
import { CLI_VERSION } from '#cli/version';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Answer = { status?: number; json?: unknown; bytes?: Buffer };

/** An HTTP server on loopback answering by `route`, keeping every request it saw. */
async function serve(route: (seen: Seen) => Answer): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { method: request.method!, path: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString() };
      seen.push(entry);
      const answer = route(entry);
      if (answer.bytes) return void response.writeHead(answer.status ?? 200, { 'content-type': 'video/mp4' }).end(answer.bytes);
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

function io(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), errRaw: (t: string) => void err.push(t), errIsTty: false, readStdin: async () => stdin } };
}

const job = (fields: Record<string, unknown>) => ({
  id: 5,
  status: 'queued',
  stage: 'queued',
  progress: 0,
  queue_position: null,
  video_id: null,
  preview_url: null,
  error: null,
  ...fields,
});

let dir: string;
let servers: Server[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-cli-commands-'));
  servers = [];
});
afterEach(() => {
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function api(route: (seen: Seen) => Answer) {
  const served = await serve(route);
  servers.push(served.server);
  return { ...served, env: { REACTION_STUDIO_CONFIG: join(dir, 'config.json'), RS_API_KEY: 'rsk_test', RS_BASE_URL: `${served.url}/api/v1` } };
}

test('--version prints the package version, as text or JSON', async () => {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../../clients/cli/package.json'), 'utf8')) as { version: string };
  expect(CLI_VERSION).toBe(pkg.version);
  const plain = io();
  expect(await run(['--version'], plain.io, {})).toBe(0);
  expect(plain.out).toEqual([pkg.version]);
  const json = io();
  expect(await run(['--version', '--json'], json.io, {})).toBe(0);
  expect(JSON.parse(json.out[0]!)).toEqual({ version: pkg.version });
});

test('login --key - reads the key from standard input; an empty one is a usage error', async () => {
  const { url, seen } = await api(() => ({ json: { data: { plan: { name: 'pro' } } } }));
  const env = { REACTION_STUDIO_CONFIG: join(dir, 'config.json') };
  const typed = io('rsk_from_stdin\n');
  expect(await run(['login', '--key', '-', '--base-url', `${url}/api/v1`], typed.io, env)).toBe(0);
  expect(seen[0]!.headers.authorization).toBe('Bearer rsk_from_stdin');
  expect((await readConfig(env.REACTION_STUDIO_CONFIG)).api_key).toBe('rsk_from_stdin');
  const empty = io('  \n');
  expect(await run(['login', '--key', '-', '--base-url', `${url}/api/v1`], empty.io, env)).toBe(2);
  expect(empty.err).toEqual(['error: --key -: no key on standard input']);
  expect(seen).toHaveLength(1);
});

describe('--wait without a terminal', () => {
  test('videos create --preview --wait: the job id on stderr, the preview URL on stdout', async () => {
    const polls = [job({ status: 'processing', stage: 'generating', progress: 40 }), job({ status: 'preview_ready', stage: 'preview_ready', progress: 100, preview_url: 'http://x/p.mp4' })];
    const { env } = await api((seen) => (seen.method === 'POST' ? { status: 202, json: { data: job({}) } } : { json: { data: polls.shift() ?? job({ status: 'preview_ready', preview_url: 'http://x/p.mp4' }) } }));
    const made = io();
    expect(await run(['videos', 'create', '--product', '3', '--prompt', 'wow', '--preview', '--wait'], made.io, env, { intervalMs: 1 })).toBe(0);
    expect(made.err).toEqual(['job 5 queued: waiting for its preview']);
    expect(made.out).toEqual(['http://x/p.mp4']);
  });

  test('jobs approve --wait --out: the job id on stderr, the video downloaded to --out', async () => {
    const { url, env } = await api((seen) => {
      if (seen.path.endsWith('/approve')) return { status: 202, json: { data: job({ status: 'processing', stage: 'composing', progress: 60 }) } };
      if (seen.path === '/api/v1/videos/jobs/5') return { json: { data: job({ status: 'done', stage: 'done', progress: 100, video_id: 9 }) } };
      if (seen.path === '/api/v1/videos/9') return { json: { data: { id: 9, job_id: 5, download_url: `${url}/files/9.mp4` } } };
      return { bytes: Buffer.from('an mp4') };
    });
    const out = join(dir, 'approved.mp4');
    const approved = io();
    expect(await run(['jobs', 'approve', '5', '--take', '1', '--wait', '--out', out], approved.io, env, { intervalMs: 1 })).toBe(0);
    expect(approved.err).toEqual(['job 5 processing: waiting for its video']);
    expect(approved.out).toEqual([out]);
    expect(readFileSync(out, 'utf8')).toBe('an mp4');
  });

  test('jobs regenerate --wait: the job id on stderr, the new preview URL on stdout; a failed job exits 7', async () => {
    let fail = false;
    const { env } = await api((seen) =>
      seen.method === 'POST'
        ? { status: 202, json: { data: job({ status: 'processing', stage: 'generating' }) } }
        : { json: { data: fail ? job({ status: 'failed', error: { code: 'render_failed', message: 'boom' } }) : job({ status: 'preview_ready', preview_url: 'http://x/take2.mp4' }) } },
    );
    const again = io();
    expect(await run(['jobs', 'regenerate', '5', '--prompt', 'again', '--wait'], again.io, env, { intervalMs: 1 })).toBe(0);
    expect(again).toMatchObject({ err: ['job 5 processing: waiting for its preview'], out: ['http://x/take2.mp4'] });
    fail = true;
    const failed = io();
    expect(await run(['jobs', 'regenerate', '5', '--wait'], failed.io, env, { intervalMs: 1 })).toBe(7);
    expect(failed.err.at(-1)).toBe('error: job 5 failed: boom (render_failed)');
  });
});

describe('local files', () => {
  test('a file that cannot be read is named, with the reason: exit 2 and nothing sent', async () => {
    const { seen, env } = await api(() => ({ json: {} }));
    const missing = join(dir, 'nope.mp4');
    const demo = io();
    expect(await run(['products', 'create', '--name', 'Glow', '--demo', missing], demo.io, env)).toBe(2);
    expect(demo.err).toEqual([`error: cannot read --demo ${missing}: no such file or directory (ENOENT)`]);
    const folder = io();
    expect(await run(['music', 'add', dir], folder.io, env)).toBe(2);
    expect(folder.err).toEqual([`error: cannot read FILE ${dir}: it is a directory (EISDIR)`]);
    const json = io();
    expect(await run(['videos', 'create', '--product', '3', '--avatar', '2', '--reference', missing, '--json'], json.io, env)).toBe(2);
    expect(JSON.parse(json.out[0]!)).toEqual({ error: `cannot read --reference ${missing}: no such file or directory`, code: 'ENOENT' });
    expect(seen).toEqual([]);
  });

  test('a video that cannot be written says where it was going: exit 1', async () => {
    const { url, env } = await api((seen) => (seen.path === '/api/v1/videos/9' ? { json: { data: { id: 9, download_url: `${url}/files/9.mp4` } } } : { bytes: Buffer.from('mp4') }));
    const out = join(dir, 'no-such-dir', 'v.mp4');
    const download = io();
    expect(await run(['videos', 'download', '9', '--out', out], download.io, env)).toBe(1);
    expect(download.err).toEqual([`error: cannot write the video to ${out}: no such file or directory (ENOENT)`]);
  });

  test('a 413 or a 415 from the API exits 5', async () => {
    writeFileSync(join(dir, 'big.mp3'), 'not really audio');
    for (const status of [413, 415]) {
      const { env } = await api(() => ({ status, json: { error: 'refused', code: status === 413 ? 'payload_too_large' : 'unsupported_media_type', request_id: 'r1' } }));
      const added = io();
      expect(await run(['music', 'add', join(dir, 'big.mp3')], added.io, env)).toBe(5);
    }
  });
});

describe('webhooks listen', () => {
  const event = (n: number, type = 'video.job.done') => ({ id: `evt_${String(n).padStart(32, '0')}`, type, created_at: `2026-11-30T12:00:0${n}.000Z`, data: { id: n } });

  test('forwards each event raised after it started, signed with its own secret, to the URL; --events filters; Ctrl-C ends it', async () => {
    const controller = new AbortController();
    const receiver = await serve(() => ({ status: 204 }));
    servers.push(receiver.server);
    // Event 1 was there before listening began; 2 and 3 come after, then 4 (another type).
    const pages: unknown[][] = [[event(2), event(3, 'product.demo.ready')], [event(4, 'avatar.ready')]];
    const { seen, env } = await api((request) => {
      const query = new URL(request.path, 'http://x').searchParams;
      if (!query.has('after')) return { json: { data: [event(1)], meta: { next_after: event(1).id } } };
      const data = pages.shift() ?? [];
      if (data.length === 0 && pages.length === 0 && receiver.seen.length >= 2) controller.abort();
      return { json: { data, meta: { next_after: (data.at(-1) as { id: string } | undefined)?.id ?? query.get('after') } } };
    });
    const listening = io();
    const code = await run(['webhooks', 'listen', '--forward-to', `${receiver.url}/hooks`, '--events', 'video.job.done,product.demo.ready'], listening.io, env, { intervalMs: 1, signal: controller.signal });
    expect(code).toBe(0);

    const { listen_secret: secret } = await readConfig(env.REACTION_STUDIO_CONFIG);
    expect(secret).toMatch(/^whsec_/);
    expect(listening.err[0]).toBe(`Ready: forwarding video.job.done, product.demo.ready of this account to ${receiver.url}/hooks (Ctrl-C to stop). Signing secret: ${secret}`);
    expect(receiver.seen.map((r) => [r.path, verifyWebhook<{ id: number }>(r.body, r.headers as Record<string, string>, secret!).data.id])).toEqual([
      ['/hooks', 2],
      ['/hooks', 3],
    ]);
    expect(listening.out).toEqual([
      expect.stringMatching(/^2026-11-30T12:00:02.000Z {2}video.job.done {2}evt_0+2 {2}-> 204 \(\d+ ms\)$/),
      expect.stringMatching(/^2026-11-30T12:00:03.000Z {2}product.demo.ready {2}evt_0+3 {2}-> 204 \(\d+ ms\)$/),
    ]);
    // It followed by cursor: after event 1, then after event 3.
    expect(seen.map((r) => new URL(r.path, 'http://x').searchParams.get('after')).slice(0, 3)).toEqual([null, event(1).id, event(3).id]);

    // The same secret the next time, and for --print-secret.
    const printed = io();
    expect(await run(['webhooks', 'listen', '--print-secret'], printed.io, env)).toBe(0);
    expect(printed.out).toEqual([secret]);
  });

  test('a local URL that does not answer is reported and listening goes on; a refused key ends it (exit 3)', async () => {
    // The account has no events yet; then one comes, then a poll fails, then the key is revoked.
    const answers: Answer[] = [
      { json: { data: [], meta: { next_after: null } } },
      { json: { data: [event(1)], meta: { next_after: event(1).id } } },
      { status: 500, json: { error: 'boom', code: 'internal_error', request_id: 'r' } },
      { status: 401, json: { error: 'key revoked', code: 'unauthorized', request_id: 'r' } },
    ];
    const { env } = await api(() => answers.shift() ?? { json: { data: [], meta: { next_after: null } } });
    const closed = await serve(() => ({}));
    closed.server.close();
    const listening = io();
    const code = await run(['webhooks', 'listen', '--forward-to', `${closed.url}/gone`, '--json'], listening.io, env, { intervalMs: 1 });
    expect(code).toBe(3);
    const lines = listening.out.map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ ready: true, events: ['*'], secret: expect.stringMatching(/^whsec_/) });
    expect(lines[1]).toMatchObject({ id: event(1).id, type: 'video.job.done', error: 'ECONNREFUSED' });
    expect(listening.err).toEqual([expect.stringMatching(/^could not read new events \(trying again\): /)]);
    expect(lines.at(-1)).toMatchObject({ code: 'unauthorized' });
  });
});
