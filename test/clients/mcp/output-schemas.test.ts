/**
 * Every tool says what it answers (outputSchema, MCP 2025-06-18 structured tool output): the schema
 * of the API answer it hands back, generated from the API description that the API's own zod schemas
 * make. Each call's structuredContent validates against the schema the tool lists (checked here with
 * Ajv, as a host checks it), and an answer that does not is a tool error rather than a wrong promise.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ReactionStudioClient } from '#client/client';
import { ApiError } from '@reaction-studio/client';
import { ANSWERS, type AnswerKey } from '#mcp/answers';
import { createMcpServer } from '#mcp/server';
import { TOOLS } from '#mcp/tools';
import { answerSchemasModule } from '../../../clients/mcp/scripts/answer-schemas';
import { openApiText } from '#functions/openapi/file';
import { exampleAnswer, exampleData } from '#test-support/api-examples';
import { readFile } from 'node:fs/promises';

/** What each helper of the typed client answers: the data of the API answer it unwraps. */
const HELPER_ANSWERS: Record<string, AnswerKey> = {
  createProduct: 'POST /products 201',
  waitForDemo: 'GET /products/{id} 200',
  createAvatar: 'POST /avatars 201',
  createVideoJob: 'POST /videos 202',
  quoteVideoJob: 'POST /videos 200',
  waitForJob: 'GET /videos/jobs/{id} 200',
  createVideoBatch: 'POST /videos/batch 202',
  getVideoBatch: 'GET /videos/batches/{id} 200',
  getJob: 'GET /videos/jobs/{id} 200',
  approveJob: 'POST /videos/jobs/{id}/approve 202',
  listTakes: 'GET /videos/jobs/{id}/takes 200',
  regenerateJob: 'POST /videos/jobs/{id}/regenerate 202',
  getVideo: 'GET /videos/{id} 200',
  uploadFile: 'POST /uploads 201',
};

/** A typed client that answers every call with the API description's example of that answer. */
function exampleClient(overrides: Record<string, unknown> = {}): ReactionStudioClient {
  const typed = (method: 'GET' | 'POST') => async (path: string) => {
    const key = ANSWERS.find((answer) => answer.startsWith(`${method} ${path} `));
    if (!key) throw new Error(`no example answer for ${method} ${path}`);
    return { data: exampleAnswer(key), response: new Response(null, { status: Number(key.split(' ')[2]) }) };
  };
  const helpers = Object.fromEntries(Object.entries(HELPER_ANSWERS).map(([name, key]) => [name, async () => exampleData(key)]));
  return { GET: typed('GET'), POST: typed('POST'), ...helpers, ...overrides } as unknown as ReactionStudioClient;
}

/** One valid call of each tool. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  list_products: {},
  get_product: { product_id: 1 },
  create_upload: { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 1234 },
  create_product: { name: 'Glow Serum', wait: true },
  suggest_hooks: { product_id: 1 },
  list_avatars: {},
  list_music: {},
  add_music: { audio_upload_id: 'up_1' },
  create_avatar: { prompt: 'a chef, laughing' },
  create_video: { product_id: 1, method: 'prompt', prompt: 'shocked', wait: true },
  quote_video: { product_id: 1, method: 'prompt', prompt: 'shocked' },
  create_video_batch: { product_id: 1, variants: [{ method: 'prompt', prompt: 'shocked' }] },
  get_batch: { batch_id: 1 },
  list_jobs: {},
  get_job: { job_id: 1 },
  approve_job: { job_id: 1 },
  list_takes: { job_id: 1 },
  regenerate_job: { job_id: 1 },
  save_reaction: { job_id: 1 },
  list_reactions: {},
  list_videos: {},
  get_video: { video_id: 1 },
  list_social_connections: {},
  publish_to_social: { provider: 'provider_a', video_id: 1, account_ids: ['a:tiktok'] },
  get_usage: {},
  upload_file: { purpose: 'demo_video' },
};

async function connected(rs: ReactionStudioClient): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(rs, { localFiles: true, intervalMs: 1 }).connect(serverSide);
  const client = new Client({ name: 'output-schemas-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

let dir: string;
let client: Client;
let tools: Tool[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-mcp-output-'));
  writeFileSync(join(dir, 'demo.mp4'), Buffer.alloc(1234, 7));
  ARGUMENTS.upload_file!.path = join(dir, 'demo.mp4');
  client = await connected(exampleClient());
  ({ tools } = await client.listTools());
});
afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (on: Client, name: string) => (await on.callTool({ name, arguments: ARGUMENTS[name] })) as CallToolResult;
const validator = new AjvJsonSchemaValidator();

test('every tool lists an output schema, an object as structuredContent must be', () => {
  expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS.map((tool) => tool.name), 'upload_file'].sort());
  expect(Object.keys(ARGUMENTS).sort()).toEqual(tools.map((tool) => tool.name).sort());
  for (const tool of tools) expect([tool.name, tool.outputSchema?.type]).toEqual([tool.name, 'object']);
});

test.each(Object.keys(ARGUMENTS))("%s: the call's structuredContent validates against its output schema", async (name) => {
  const result = await call(client, name);
  expect(result.isError).toBeFalsy();
  const tool = tools.find((listed) => listed.name === name)!;
  const checked = validator.getValidator(tool.outputSchema as never)(result.structuredContent);
  expect({ valid: checked.valid, error: checked.errorMessage }).toEqual({ valid: true, error: undefined });
});

test("the schema holds the API's rules: a job without its status, or a status the API never answers, is not a job", () => {
  const job = tools.find((tool) => tool.name === 'get_job')!;
  const check = validator.getValidator(job.outputSchema as never);
  const { status: _status, ...withoutStatus } = exampleData('GET /videos/jobs/{id} 200');
  expect(check(withoutStatus).valid).toBe(false);
  expect(check({ ...exampleData('GET /videos/jobs/{id} 200'), status: 'sideways' }).valid).toBe(false);
  // A field the API adds within v1 does not break a tool that predates it.
  expect(check({ ...exampleData('GET /videos/jobs/{id} 200'), added_later: 1 }).valid).toBe(true);
});

test('a test record is told apart by its `test` field, which the schemas require', () => {
  const video = tools.find((tool) => tool.name === 'get_video')!;
  const check = validator.getValidator(video.outputSchema as never);
  expect(check({ ...exampleData('GET /videos/{id} 200'), test: true }).valid).toBe(true);
  const { test: _test, ...untold } = exampleData('GET /videos/{id} 200');
  expect(check(untold).valid).toBe(false);
});

test('an answer that is not what the tool promises is refused by a host that checks output schemas', async () => {
  const odd = await connected(exampleClient({ getJob: async () => ({ id: 'seven' }) }));
  await odd.listTools();
  await expect(call(odd, 'get_job')).rejects.toThrow(/output schema/);
  await odd.close();
});

test('a tool lists only the components its answer reaches', () => {
  const defs = (name: string) => Object.keys((tools.find((tool) => tool.name === name)!.outputSchema as { $defs?: object }).$defs ?? {});
  // A record the tool answers is the schema's root, so it names no component.
  expect(defs('get_usage')).toEqual([]);
  expect(defs('list_products')).toEqual(['DemoVideo', 'PageMeta', 'Product']);
});

test("the API's refusal stays a tool error a client that checks output schemas accepts, its details under _meta", async () => {
  const refusing = await connected(
    exampleClient({
      getJob: async () => {
        throw new ApiError({ status: 404, code: 'not_found', message: 'Job not found', requestId: 'req-9', retryAfterS: null, body: null });
      },
    }),
  );
  await refusing.listTools();
  const result = await call(refusing, 'get_job');
  expect(result).toMatchObject({ isError: true, _meta: { 'reaction-studio/error': { code: 'not_found', status: 404 } } });
  expect(result.structuredContent).toBeUndefined();
  await refusing.close();
});

test('src/answer-schemas.ts is what the generator makes of the API description as the code describes it now', async () => {
  const committed = await readFile('clients/mcp/src/answer-schemas.ts', 'utf8');
  if (answerSchemasModule(JSON.parse(openApiText())) !== committed) {
    throw new Error('clients/mcp/src/answer-schemas.ts is stale: run `npm run openapi && npm run client:generate` and commit both');
  }
});
