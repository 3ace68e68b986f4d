/**
 * The user CLI without the service: its argument parsing per command, the exit code each failure maps
 * to, how run() reports a usage error (a line on stderr, or JSON on stdout with --json), and what
 * the sound options put in the bodies (sent to a server that only records them).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '#client/errors';
import { parseInvocation } from '#cli/args';
import { configPath, readConfig, resolveCredentials, writeConfig } from '#cli/config';
import { EXIT, JobFailedError, LocalFileError, NotSignedInError, UsageError, exitCodeFor, exitCodeForStatus } from '#cli/exit-codes';
import { errorJson, errorLine } from '#cli/output';
import { run } from '#cli/run';

const parse = (line: string) => parseInvocation(line.split(' ').filter(Boolean)).command;
const usageError = (line: string) => {
  try {
    parse(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`parsed: ${line}`);
};

describe('argument parsing', () => {
  test('each command parses into its typed request', () => {
    expect(parse('login --key rsk_abc --base-url http://x/api/v1')).toEqual({ name: 'login', key: 'rsk_abc', baseUrl: 'http://x/api/v1' });
    expect(parse('products create --name Glow --demo d.mp4 --wait')).toEqual({ name: 'products create', productName: 'Glow', description: undefined, demo: 'd.mp4', wait: true });
    expect(parse('products list')).toEqual({ name: 'products list' });
    expect(parse('hooks 12')).toEqual({ name: 'hooks', productId: 12 });
    expect(parse('videos create --product 3 --prompt laughing --hook Hi --position top --size large --preview --wait --out a.mp4')).toEqual({
      name: 'videos create',
      productId: 3,
      source: { method: 'prompt', prompt: 'laughing' },
      hook: 'Hi',
      position: 'top',
      size: 'large',
      preview: true,
      wait: true,
      out: 'a.mp4',
    });
    expect(parse('videos create --product 3 --reaction 9')).toMatchObject({ source: { method: 'reuse', reactionId: 9 }, preview: false, wait: false });
    expect(parse('videos create --product 3 --avatar 4 --reference r.mp4')).toMatchObject({ source: { method: 'motion', avatarId: 4, reference: 'r.mp4' } });
    expect(parse('videos download 5 --out v.mp4')).toEqual({ name: 'videos download', videoId: 5, out: 'v.mp4' });
    expect(parse('videos list')).toEqual({ name: 'videos list' });
    expect(parse('jobs get 7')).toEqual({ name: 'jobs get', jobId: 7 });
    expect(parse('jobs approve 7 --hook Yes --size small')).toEqual({ name: 'jobs approve', jobId: 7, hook: 'Yes', position: undefined, size: 'small', wait: false });
    expect(parse('jobs regenerate 7 --prompt again')).toEqual({ name: 'jobs regenerate', jobId: 7, prompt: 'again', wait: false });
    expect(parse('jobs takes 7')).toEqual({ name: 'jobs takes', jobId: 7 });
    expect(parse('jobs approve 7 --take 2')).toEqual({ name: 'jobs approve', jobId: 7, take: 2, wait: false });
    expect(parse('music list')).toEqual({ name: 'music list' });
    expect(parse('music add song.mp3 --name Summer')).toEqual({ name: 'music add', file: 'song.mp3', trackName: 'Summer' });
    expect(parse('music delete t12')).toEqual({ name: 'music delete', musicId: 't12' });
    expect(parse('usage')).toEqual({ name: 'usage' });
    expect(parse('')).toEqual({ name: 'help' });
  });

  test('videos batch: one reaction under each --hook, a variant per hook', () => {
    expect(parse('videos batch --product 3 --prompt laughing --hook A --hook B --size large --wait')).toEqual({
      name: 'videos batch',
      productId: 3,
      source: { method: 'prompt', prompt: 'laughing' },
      hooks: ['A', 'B'],
      position: undefined,
      size: 'large',
      wait: true,
    });
    expect(parse('videos batch --product 3 --reaction 9 --hook A')).toMatchObject({ source: { method: 'reuse', reactionId: 9 }, hooks: ['A'], wait: false });
    expect(usageError('videos batch --product 3 --prompt x')).toBe('--hook is required (once per video)');
    expect(usageError('videos batch --product 3 --hook A')).toBe('give exactly one of --prompt TEXT or --reaction ID');
    expect(usageError('videos batch --product 3 --prompt x --reaction 2 --hook A')).toBe('give exactly one of --prompt TEXT or --reaction ID');
    expect(usageError('videos batch --product 3 --avatar 4 --reference r.mp4 --hook A')).toMatch(/Unknown option '--avatar'/);
    expect(usageError('videos batch --prompt x --hook A')).toBe('--product is required');
  });

  test('sound: --sound, --music (alone it means music) and --voice-line on create, batch, approve and regenerate', () => {
    const argv = (line: string, ...tail: string[]) => parseInvocation([...line.split(' '), ...tail]).command;
    expect(argv('videos create --product 3 --prompt laughing --sound music --music sunny-pop --voice-line', 'Wait, what?')).toMatchObject({
      source: { method: 'prompt' },
      sound: 'music',
      musicId: 'sunny-pop',
      voiceLine: 'Wait, what?',
    });
    expect(parse('videos create --product 3 --prompt x --music t12')).toMatchObject({ sound: undefined, musicId: 't12' });
    expect(parse('videos create --product 3 --reaction 9 --sound none')).toMatchObject({ source: { method: 'reuse' }, sound: 'none', musicId: undefined, voiceLine: undefined });
    expect(parse('videos batch --product 3 --prompt x --hook A --hook B --music toy-box --voice-line hey')).toMatchObject({ hooks: ['A', 'B'], musicId: 'toy-box', voiceLine: 'hey' });
    expect(parse('jobs approve 7 --sound music --music t4')).toEqual({ name: 'jobs approve', jobId: 7, sound: 'music', musicId: 't4', wait: false });
    expect(parse('jobs regenerate 7 --sound none --voice-line again')).toEqual({ name: 'jobs regenerate', jobId: 7, sound: 'none', voiceLine: 'again', wait: false });

    expect(usageError('videos create --product 3 --prompt x --sound loud')).toMatch(/--sound must be one of auto, music, none/);
    expect(usageError('videos create --product 3 --prompt x --sound music')).toBe('--sound music needs --music TRACK (music list shows the tracks)');
    expect(usageError('videos create --product 3 --prompt x --sound none --music t1')).toBe('--music is for --sound music, not --sound none');
    expect(usageError('videos create --product 3 --prompt x --music Sunny_Pop')).toBe('--music must be a track id from music list (sunny-pop, t12)');
    expect(usageError('videos create --product 3 --reaction 9 --voice-line hey')).toMatch(/--voice-line cannot be used with --reaction/);
    expect(usageError('videos batch --product 3 --reaction 9 --hook A --voice-line hey')).toMatch(/--voice-line cannot be used with --reaction/);
    expect(usageError(`videos create --product 3 --prompt x --voice-line ${'a'.repeat(101)}`)).toBe('--voice-line must be at most 100 characters');
    expect(usageError('jobs approve 7 --voice-line hey')).toMatch(/Unknown option '--voice-line'/);
    expect(usageError('jobs approve 7 --sound music')).toMatch(/needs --music/);
    expect(usageError('jobs approve 7 --take 0')).toBe('--take must be a positive integer');
    expect(usageError('jobs approve 7 --take first')).toBe('--take must be a positive integer');
  });

  test('the caption look: --style and --hook-duration on create, batch, approve and regenerate', () => {
    expect(parse('videos create --product 3 --prompt x --hook Hi --style box --hook-duration full')).toMatchObject({ hook: 'Hi', style: 'box', hookDuration: 'full' });
    expect(parse('videos batch --product 3 --reaction 9 --hook A --style bold_caps')).toMatchObject({ hooks: ['A'], style: 'bold_caps', hookDuration: undefined });
    expect(parse('jobs approve 7 --style glow --hook-duration reaction')).toEqual({ name: 'jobs approve', jobId: 7, style: 'glow', hookDuration: 'reaction', wait: false });
    expect(parse('jobs regenerate 7 --style highlight')).toEqual({ name: 'jobs regenerate', jobId: 7, style: 'highlight', wait: false });
    expect(usageError('videos create --product 3 --prompt x --style comic')).toBe('--style must be one of outline, box, highlight, glow, bold_caps');
    expect(usageError('jobs approve 7 --hook-duration forever')).toBe('--hook-duration must be one of reaction, full');
  });

  test('--version, login --key - (standard input), --wait on approve and regenerate, webhooks listen', () => {
    expect(parse('--version')).toEqual({ name: 'version' });
    expect(parse('login --key -')).toEqual({ name: 'login', key: '-', baseUrl: undefined });
    expect(parse('jobs approve 7 --take 2 --wait --out v.mp4')).toMatchObject({ name: 'jobs approve', jobId: 7, take: 2, wait: true, out: 'v.mp4' });
    expect(parse('jobs approve 7')).toMatchObject({ wait: false, out: undefined });
    expect(parse('jobs regenerate 7 --prompt again --wait')).toMatchObject({ name: 'jobs regenerate', jobId: 7, prompt: 'again', wait: true });
    expect(parse('webhooks listen --forward-to http://localhost:4000/hooks')).toEqual({ name: 'webhooks listen', forwardTo: 'http://localhost:4000/hooks', events: undefined, printSecret: false });
    expect(parse('webhooks listen --forward-to http://localhost:4000/ --events video.job.done,product.demo.ready')).toMatchObject({ events: ['video.job.done', 'product.demo.ready'] });
    expect(parse('webhooks listen --forward-to http://localhost:4000/ --events *')).toMatchObject({ events: undefined });
    expect(parse('webhooks listen --print-secret')).toEqual({ name: 'webhooks listen', forwardTo: '', printSecret: true });
  });

  test('--json is taken wherever it stands', () => {
    expect(parseInvocation(['--json', 'usage'])).toEqual({ command: { name: 'usage' }, json: true });
    expect(parseInvocation(['jobs', 'get', '7', '--json'])).toEqual({ command: { name: 'jobs get', jobId: 7 }, json: true });
  });

  test('bad arguments are usage errors naming what is wrong', () => {
    expect(usageError('videos create --prompt x')).toBe('--product is required');
    expect(usageError('videos create --product 3')).toMatch(/exactly one of/);
    expect(usageError('videos create --product 3 --prompt x --reaction 2')).toMatch(/exactly one of/);
    expect(usageError('videos create --product 3 --avatar 4')).toBe('--reference is required');
    expect(usageError('videos create --product abc --prompt x')).toBe('--product must be a positive integer');
    expect(usageError('videos create --product 3 --prompt x --position left')).toMatch(/--position must be one of top, middle, bottom/);
    expect(usageError('videos create --product 3 --prompt x --colour red')).toMatch(/colour/);
    expect(usageError('login')).toBe('--key is required');
    expect(usageError('login --key')).toMatch(/--key/);
    expect(usageError('products create --name x')).toBe('--demo is required');
    expect(usageError('hooks')).toBe('PRODUCT_ID is required');
    expect(usageError('hooks 0')).toBe('PRODUCT_ID must be a positive integer');
    expect(usageError('jobs get 1 2')).toBe('unexpected argument: 2');
    expect(usageError('usage now')).toBe('unexpected argument: now');
    expect(usageError('jobs frobnicate')).toBe('unknown command: jobs frobnicate');
    expect(usageError('frobnicate')).toBe('unknown command: frobnicate');
    expect(usageError('--version now')).toBe('unexpected argument: now');
    expect(usageError('jobs approve 7 --out v.mp4')).toMatch(/--out needs --wait/);
    expect(usageError('webhooks listen')).toBe('--forward-to is required');
    expect(usageError('webhooks listen --forward-to localhost:4000')).toMatch(/--forward-to must be an http or https URL/);
    expect(usageError('webhooks listen --forward-to nowhere')).toMatch(/--forward-to must be a URL/);
    expect(usageError('webhooks listen --forward-to http://localhost:4000/ --events done')).toMatch(/--events must be event types/);
    expect(usageError('webhooks listen --print-secret --forward-to http://localhost:4000/')).toMatch(/--print-secret takes no other option/);
  });
});

describe('exit codes', () => {
  const apiError = (status: number, code: string) => new ApiError({ status, code, message: 'm', requestId: 'req-1', retryAfterS: null, body: null });

  test('API statuses map to the documented codes', () => {
    expect([401, 403].map(exitCodeForStatus)).toEqual([EXIT.auth, EXIT.auth]);
    expect(exitCodeForStatus(404)).toBe(EXIT.notFound);
    expect([400, 409, 413, 415, 422].map(exitCodeForStatus)).toEqual([5, 5, 5, 5, 5]);
    expect([402, 429].map(exitCodeForStatus)).toEqual([6, 6]);
    expect([500, 502, 503].map(exitCodeForStatus)).toEqual([1, 1, 1]);
  });

  test('each kind of failure has its code', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(2);
    expect(exitCodeFor(new NotSignedInError())).toBe(3);
    expect(exitCodeFor(apiError(404, 'not_found'))).toBe(4);
    expect(exitCodeFor(apiError(402, 'allowance_exhausted'))).toBe(6);
    expect(exitCodeFor(new JobFailedError(1, 'render_failed', 'boom'))).toBe(7);
    expect(exitCodeFor(new TypeError('fetch failed'))).toBe(1);
    expect(exitCodeFor(new LocalFileError('read', 'a.mp4', 'ENOENT', 'x'))).toBe(2);
    expect(exitCodeFor(new LocalFileError('write', 'a.mp4', 'ENOENT', 'x'))).toBe(1);
  });

  test('an error is one line, or one JSON object', () => {
    expect(errorLine(apiError(404, 'not_found'))).toBe('error: m (not_found, request req-1)');
    expect(JSON.parse(errorJson(apiError(404, 'not_found')))).toEqual({ error: 'm', code: 'not_found', request_id: 'req-1' });
    expect(errorLine(new UsageError('--product is required'))).toBe('error: --product is required');
    expect(JSON.parse(errorJson(new JobFailedError(3, 'render_failed', 'boom')))).toEqual({ error: 'job 3 failed: boom', code: 'render_failed' });
  });

  test('an error that names its field and its reference entry says both', () => {
    const named = new ApiError({ status: 400, code: 'bad_request', message: 'm', requestId: 'req-2', retryAfterS: null, body: null, param: 'hook_text', docUrl: 'http://localhost:3000/api/v1/docs/errors#bad_request' });
    expect(errorLine(named)).toBe('error: m (bad_request, field hook_text, request req-2)\n  see http://localhost:3000/api/v1/docs/errors#bad_request');
    expect(JSON.parse(errorJson(named))).toEqual({ error: 'm', code: 'bad_request', param: 'hook_text', request_id: 'req-2', doc_url: 'http://localhost:3000/api/v1/docs/errors#bad_request' });
  });
});

describe('run() and the config file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rs-cli-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), errRaw: (t: string) => err.push(t), errIsTty: false, readStdin: async () => '' } };
  };

  test('a usage error exits 2 with one line on stderr, or JSON on stdout with --json', async () => {
    const plain = io();
    expect(await run(['videos', 'create', '--prompt', 'x'], plain.io, { REACTION_STUDIO_CONFIG: join(dir, 'c.json') })).toBe(2);
    expect(plain).toMatchObject({ out: [], err: ['error: --product is required'] });
    const json = io();
    expect(await run(['videos', 'create', '--prompt', 'x', '--json'], json.io, { REACTION_STUDIO_CONFIG: join(dir, 'c.json') })).toBe(2);
    expect(json.err).toEqual([]);
    expect(JSON.parse(json.out[0]!)).toEqual({ error: '--product is required', code: null });
  });

  test('without a key a command exits 3 and sends nothing', async () => {
    const plain = io();
    expect(await run(['usage'], plain.io, { REACTION_STUDIO_CONFIG: join(dir, 'missing.json') })).toBe(3);
    expect(plain.err[0]).toMatch(/^error: not signed in/);
  });

  test('the sound options reach the API as sound, music_id and voice_line (batch variants each carry them)', async () => {
    const seen: { path: string; body: Record<string, unknown> }[] = [];
    const server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        seen.push({ path: request.url!, body: JSON.parse(text || '{}') as Record<string, unknown> });
        response.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id: 1, jobs: [] } }));
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const env = { REACTION_STUDIO_CONFIG: join(dir, 'c.json'), RS_API_KEY: 'rsk_test', RS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` };
      const cli = async (...argv: string[]) => expect(await run([...argv, '--json'], io().io, env)).toBe(0);
      await cli('videos', 'create', '--product', '3', '--prompt', 'x', '--music', 'sunny-pop', '--voice-line', 'Wait, what?');
      await cli('videos', 'batch', '--product', '3', '--prompt', 'x', '--hook', 'A', '--hook', 'B', '--sound', 'none');
      await cli('jobs', 'approve', '7', '--sound', 'music', '--music', 't4');
      await cli('jobs', 'regenerate', '7', '--voice-line', 'again');
      await cli('videos', 'create', '--product', '3', '--prompt', 'x');
    } finally {
      server.close();
    }
    expect(seen).toEqual([
      { path: '/api/v1/videos', body: { product_id: 3, mode: 'auto', method: 'prompt', prompt: 'x', music_id: 'sunny-pop', voice_line: 'Wait, what?' } },
      {
        path: '/api/v1/videos/batch',
        body: { product_id: 3, variants: ['A', 'B'].map((hook) => ({ method: 'prompt', prompt: 'x', hook_text: hook, sound: 'none' })) },
      },
      { path: '/api/v1/videos/jobs/7/approve', body: { sound: 'music', music_id: 't4' } },
      { path: '/api/v1/videos/jobs/7/regenerate', body: { voice_line: 'again' } },
      // Nothing given: the API's default (auto), not a field the CLI fills in.
      { path: '/api/v1/videos', body: { product_id: 3, mode: 'auto', method: 'prompt', prompt: 'x' } },
    ]);
  });

  test('the config file is 0600, and RS_API_KEY / RS_BASE_URL override it', async () => {
    const path = join(dir, 'nested', 'config.json');
    expect(configPath({ REACTION_STUDIO_CONFIG: path })).toBe(path);
    expect(configPath({ HOME: '/home/u' })).toBe('/home/u/.config/reaction-studio/config.json');
    await writeConfig(path, { api_key: 'rsk_file', base_url: 'http://file/api/v1' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await readConfig(path)).toEqual({ api_key: 'rsk_file', base_url: 'http://file/api/v1' });
    expect(await resolveCredentials({ REACTION_STUDIO_CONFIG: path })).toEqual({ apiKey: 'rsk_file', baseUrl: 'http://file/api/v1' });
    expect(await resolveCredentials({ REACTION_STUDIO_CONFIG: path, RS_API_KEY: 'rsk_env', RS_BASE_URL: 'http://env/api/v1' })).toEqual({ apiKey: 'rsk_env', baseUrl: 'http://env/api/v1' });
  });
});
