/**
 * The MCP server against the local stack, driven by the SDK's own client as an MCP host would: over
 * stdio (clients/mcp/src/stdio.ts as a child process, the key from the environment) and
 * over streamable HTTP at the stack's /mcp (the key in Authorization, as for the API). A product
 * with its demo by upload id, hook ideas, a video created and waited for with progress
 * notifications, usage; bad input as a tool error; no key or a bad key refused.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from '#client/client';
import { fileFromPath } from '#client/node';
import { bundledEntry } from '#test-support/bundled-entry';
import { startTestStack, type TestStack } from '#test-support/local-stack';
import { makeFixture } from '#test-support/media-fixtures';

const ROOT = resolve(__dirname, '..', '..', '..');
const exec = promisify(execFile);

const TOOLS = [
  'add_music',
  'approve_job',
  'create_avatar',
  'create_product',
  'create_upload',
  'create_video',
  'create_video_batch',
  'get_batch',
  'get_job',
  'get_product',
  'list_takes',
  'get_usage',
  'get_video',
  'list_avatars',
  'list_jobs',
  'list_music',
  'list_products',
  'list_reactions',
  'list_social_connections',
  'list_videos',
  'publish_to_social',
  'quote_video',
  'regenerate_job',
  'save_reaction',
  'suggest_hooks',
];

let t: TestStack;
let dir: string;
/** clients/mcp/src/stdio.ts bundled once for the suite (see bundled-entry.ts). */
let stdio: string;
let demo: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'rs-mcp-'));
  stdio = await bundledEntry('clients/mcp/src/stdio.ts', dir, 'esm');
  demo = await makeFixture('demo-mp4');
}, 120_000);
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await t?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function overStdio(env: Record<string, string>): Promise<Client> {
  const { REACTION_STUDIO_API_KEY: _key, REACTION_STUDIO_API_URL: _url, ...rest } = process.env;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [stdio],
    cwd: ROOT,
    env: { ...(rest as Record<string, string>), REACTION_STUDIO_API_URL: t.stack.apiUrl, REACTION_STUDIO_POLL_INTERVAL_MS: '300', ...env },
    stderr: 'pipe',
  });
  return connected(transport);
}

const mcpUrl = () => new URL('/mcp', t.stack.baseUrl);

function overHttp(key: string): Promise<Client> {
  return connected(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
}

async function connected(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'reaction-studio-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>, options?: Parameters<Client['callTool']>[2]) =>
  (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;

const structured = (result: CallToolResult) => {
  expect(result.isError).toBeFalsy();
  // The text is the same JSON, for clients that only read content.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as any;
};

async function demoUploadId(key: string): Promise<string> {
  const rs = createClient({ baseUrl: t.stack.apiUrl, apiKey: key });
  return (await rs.uploadFile('demo_video', await fileFromPath(demo), { contentType: 'video/mp4' })).id;
}

/**
 * The whole flow, as an MCP host's model would run it. `lastProgressArrives`: the server sends the
 * final notification (100) before the result, but the SDK's client handles a notification a microtask
 * after a response read in the same chunk and by then drops progress for an answered request; over
 * stdio both often come in one read, over SSE never.
 */
async function productHooksVideoUsage(client: Client, demoUpload: () => Promise<string>, lastProgressArrives: boolean): Promise<void> {
  const product = structured(await call(client, 'create_product', { name: 'Glow Serum', demo_video_upload_id: await demoUpload(), wait: true }));
  expect(product).toMatchObject({ id: expect.any(Number), name: 'Glow Serum', demo_video: { status: 'ready' } });

  const ideas = structured(await call(client, 'suggest_hooks', { product_id: product.id }));
  expect(ideas.hooks).toHaveLength(10);

  const progress: Progress[] = [];
  const job = structured(
    await call(client, 'create_video', { product_id: product.id, method: 'prompt', prompt: 'shocked by the price', hook_text: ideas.hooks[0].text, wait: true }, {
      onprogress: (p) => progress.push(p),
      timeout: 60_000,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 240_000,
    }),
  );
  expect(job).toMatchObject({ id: expect.any(Number), status: 'done', progress: 100, video_id: expect.any(Number) });
  expect(progress.length).toBeGreaterThanOrEqual(2);
  for (const p of progress) expect(p).toEqual({ progress: expect.any(Number), total: 100, message: expect.stringMatching(new RegExp(`^job ${job.id}: `)) });
  if (lastProgressArrives) expect(progress.at(-1)).toMatchObject({ progress: 100, message: expect.stringContaining('done') });
  // The protocol wants progress to grow with every notification.
  const figures = progress.map((p) => p.progress);
  expect(figures).toEqual([...figures].sort((a, b) => a - b));
  expect(new Set(figures).size).toBe(figures.length);

  expect(structured(await call(client, 'get_job', { job_id: job.id }))).toMatchObject({ id: job.id, status: 'done' });
  expect(structured(await call(client, 'list_jobs', { limit: 5 })).data).toEqual([expect.objectContaining({ id: job.id, status: 'done' })]);
  // A quote reserves nothing: the allowance below still shows the one video.
  expect(structured(await call(client, 'quote_video', { product_id: product.id, method: 'prompt', prompt: 'laughing' }))).toMatchObject({ valid: true, units: 1, estimated_seconds: expect.any(Number) });
  const usage = structured(await call(client, 'get_usage', {}));
  expect(usage).toMatchObject({ plan: { name: 'pro' }, allowance: { used: 1 } });
  const videos = structured(await call(client, 'list_videos', {}));
  expect(videos.data).toEqual([expect.objectContaining({ id: job.video_id, product_id: product.id })]);
}

async function expectToolErrors(client: Client): Promise<void> {
  // The schema refuses a wrong type before anything is sent.
  const wrongType = await call(client, 'create_video', { product_id: 'abc', method: 'prompt' });
  expect(wrongType.isError).toBe(true);
  expect((wrongType.content[0] as { text: string }).text).toMatch(/product_id/);
  // The API refuses what only it can know, and its code and request id come back.
  const unknownJob = await call(client, 'get_job', { job_id: 99_999_999 });
  expect(unknownJob).toMatchObject({ isError: true, _meta: { 'reaction-studio/error': { code: 'not_found', status: 404, request_id: expect.any(String) } } });
  const twoSources = await call(client, 'create_avatar', { prompt: 'a cheerful chef', image_url: 'https://example.com/a.png' });
  expect(twoSources.isError).toBe(true);
  expect((await call(client, 'no_such_tool', {})).isError).toBe(true);
  // The server is still there.
  expect(structured(await call(client, 'get_usage', {})).plan.name).toBe('pro');
}

async function expectEveryToolDescribed(client: Client, extra: string[] = []): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS, ...extra].sort());
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.description).toBeTruthy();
  }
  const createVideo = tools.find((tool) => tool.name === 'create_video')!;
  expect(createVideo.inputSchema.required).toEqual(['product_id', 'method']);
}

describe('over stdio', () => {
  test('every tool has an input schema; a product from a local file (upload_file), hooks, a video waited for with progress, usage', async () => {
    const { key } = await t.newAccount();
    const client = await overStdio({ REACTION_STUDIO_API_KEY: key });
    // Only the stdio server reads the user's disk.
    await expectEveryToolDescribed(client, ['upload_file']);
    const fromDisk = async () => structured(await call(client, 'upload_file', { path: demo, purpose: 'demo_video' })).id as string;
    await productHooksVideoUsage(client, fromDisk, false);
  }, 300_000);

  test('bad input is a tool error that says what was wrong, and the server carries on', async () => {
    const { key } = await t.newAccount();
    await expectToolErrors(await overStdio({ REACTION_STUDIO_API_KEY: key }));
  }, 60_000);

  test('a bad key: each tool call is the API\'s 401 as a tool error', async () => {
    const client = await overStdio({ REACTION_STUDIO_API_KEY: 'rsk_not_a_real_key' });
    expect(await call(client, 'get_usage', {})).toMatchObject({ isError: true, _meta: { 'reaction-studio/error': { code: 'unauthorized', status: 401 } } });
  }, 60_000);

  test('without a key it says so on stderr and exits 2', async () => {
    const { REACTION_STUDIO_API_KEY: _key, ...env } = process.env;
    const failed = await exec(process.execPath, [stdio], { cwd: ROOT, env }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/REACTION_STUDIO_API_KEY/) });
  }, 60_000);
});

describe('over streamable HTTP at /mcp', () => {
  test('every tool has an input schema; a product by upload id, hooks, a video waited for with progress streamed, usage', async () => {
    const { key } = await t.newAccount();
    const client = await overHttp(key);
    await expectEveryToolDescribed(client);
    await productHooksVideoUsage(client, () => demoUploadId(key), true);
  }, 300_000);

  test('bad input is a tool error that says what was wrong, and the server carries on', async () => {
    const { key } = await t.newAccount();
    await expectToolErrors(await overHttp(key));
  }, 60_000);

  test('no key or a bad key is the API\'s 401 in its envelope; the SDK client fails to connect', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const authorization of [undefined, 'Bearer rsk_not_a_real_key', 'Basic abc']) {
      const response = await fetch(mcpUrl(), { method: 'POST', headers: { ...headers, ...(authorization ? { authorization } : {}) }, body: initialize });
      expect(response.status).toBe(401);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'unauthorized', request_id: response.headers.get('x-request-id'), doc_url: expect.stringMatching(/\/api\/v1\/docs\/errors#unauthorized$/) });
    }
    await expect(overHttp('rsk_not_a_real_key')).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/unauthorized/) });
  }, 60_000);

  test('GET /mcp is the endpoint\'s 405 (stateless: no stream to open), not a studio page', async () => {
    const { key } = await t.newAccount();
    const response = await fetch(mcpUrl(), { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
  });

  test('a broken body is a 400 and one over 1 MB a 413 in the envelope; the endpoint still answers after them', async () => {
    const { key } = await t.newAccount();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const broken = await fetch(mcpUrl(), { method: 'POST', headers, body: '{"jsonrpc":' });
    expect(broken.status).toBe(400);
    const huge = await fetch(mcpUrl(), { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } }) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: expect.any(String), code: 'payload_too_large', request_id: huge.headers.get('x-request-id'), doc_url: '/api/v1/docs/errors#payload_too_large' });
    const client = await overHttp(key);
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
  });
});
