/** quote_video, create_video_batch, get_batch and list_jobs without the service: what each hands the typed client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient } from '#client/client';
import { createMcpServer } from '#mcp/server';
import type { AnswerKey } from '#mcp/answers';
import { exampleAnswer, exampleData } from '#test-support/api-examples';

const calls: { method: string; args: unknown[] }[] = [];
/** What each method of the typed client answers: the API description's example. */
const ANSWERS: Record<string, AnswerKey> = { quoteVideoJob: 'POST /videos 200', createVideoBatch: 'POST /videos/batch 202', getVideoBatch: 'GET /videos/batches/{id} 200' };
const JOBS = exampleAnswer('GET /videos/jobs 200');
const rs = new Proxy(
  {},
  {
    get: (_target, method) =>
      method === 'GET'
        ? async (...args: unknown[]) => (calls.push({ method: 'GET', args }), { data: JOBS, response: new Response() })
        : async (...args: unknown[]) => (calls.push({ method: String(method), args }), exampleData(ANSWERS[String(method)]!)),
  },
) as unknown as ReactionStudioClient;

let client: Client;
beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(rs).connect(serverSide);
  client = new Client({ name: 'batch-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(() => client?.close());
beforeEach(() => calls.splice(0));

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

test('quote_video is create_video as a dry run, the key passed on', async () => {
  expect((await call('quote_video', { product_id: 3, method: 'prompt', prompt: 'shocked', idempotency_key: 'k1' })).isError).toBeFalsy();
  expect(calls).toEqual([{ method: 'quoteVideoJob', args: [{ product_id: 3, method: 'prompt', prompt: 'shocked', idempotencyKey: 'k1' }] }]);
});

test('create_video_batch sends the product and its variants; get_batch reads one back', async () => {
  const variants = [
    { method: 'reuse', reaction_id: 9, hook_text: 'Wait for it' },
    { method: 'reuse', reaction_id: 9, hook_text: 'You need this', hook_style: 'box' },
  ];
  expect((await call('create_video_batch', { product_id: 3, variants })).isError).toBeFalsy();
  expect((await call('get_batch', { batch_id: 4 })).isError).toBeFalsy();
  expect(calls).toEqual([
    { method: 'createVideoBatch', args: [{ product_id: 3, variants }] },
    { method: 'getVideoBatch', args: [4] },
  ]);
});

test('a batch of none, of 21, or with an unknown variant field is refused before anything is sent', async () => {
  const variant = { method: 'prompt', prompt: 'x' };
  for (const variants of [[], Array.from({ length: 21 }, () => variant), [{ ...variant, hook: 'typo' }]]) {
    expect((await call('create_video_batch', { product_id: 3, variants })).isError).toBe(true);
  }
  expect(calls).toEqual([]);
});

test('list_jobs reads a newest-first slice', async () => {
  const listed = await call('list_jobs', { limit: 5, before: 40 });
  expect(listed.structuredContent).toEqual(JOBS);
  expect(calls).toEqual([{ method: 'GET', args: ['/videos/jobs', { params: { query: { limit: 5, before: 40 } } }] }]);
});
