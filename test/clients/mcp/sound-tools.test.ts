/**
 * The MCP tools' sound fields without the service: create_video, approve_job and regenerate_job
 * advertise sound, music_id and voice_line with their descriptions, hand them to the typed client as
 * given, and refuse what is plainly wrong (another sound, a voice line over 100 characters).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient } from '#client/client';
import { createMcpServer } from '#mcp/server';
import { exampleData } from '#test-support/api-examples';

const JOB = exampleData('GET /videos/jobs/{id} 200');
const calls: { method: string; args: unknown[] }[] = [];
const recorder = (method: string) => async (...args: unknown[]) => {
  calls.push({ method, args });
  return JOB;
};
const rs = { createVideoJob: recorder('createVideoJob'), approveJob: recorder('approveJob'), regenerateJob: recorder('regenerateJob') } as unknown as ReactionStudioClient;

let client: Client;
beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(rs).connect(serverSide);
  client = new Client({ name: 'sound-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(() => client?.close());
beforeEach(() => calls.splice(0));

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

test('create_video, approve_job and regenerate_job describe the sound fields', async () => {
  const { tools } = await client.listTools();
  const properties = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>;
  for (const name of ['create_video', 'approve_job', 'regenerate_job']) {
    expect(properties(name).sound).toMatchObject({ enum: ['auto', 'music', 'none'], description: expect.stringContaining('music_id') });
    expect(properties(name).music_id?.description).toMatch(/list_music/);
  }
  expect(properties('create_video').voice_line?.description).toMatch(/100 characters/);
  expect(properties('regenerate_job').voice_line).toBeDefined();
  // Approving keeps the reaction as it was made: nothing more is spoken.
  expect(properties('approve_job').voice_line).toBeUndefined();
});

test('the sound fields reach the client as given', async () => {
  expect((await call('create_video', { product_id: 3, method: 'prompt', prompt: 'shocked', sound: 'music', music_id: 'sunny-pop', voice_line: 'Wait, what?' })).isError).toBeFalsy();
  expect((await call('approve_job', { job_id: 7, sound: 'none' })).isError).toBeFalsy();
  expect((await call('regenerate_job', { job_id: 7, music_id: 't12', voice_line: 'again' })).isError).toBeFalsy();
  expect(calls).toEqual([
    { method: 'createVideoJob', args: [{ product_id: 3, method: 'prompt', prompt: 'shocked', sound: 'music', music_id: 'sunny-pop', voice_line: 'Wait, what?', idempotencyKey: undefined }] },
    { method: 'approveJob', args: [7, { sound: 'none' }] },
    { method: 'regenerateJob', args: [7, { music_id: 't12', voice_line: 'again' }] },
  ]);
});

test('what is plainly wrong is a tool error and nothing is sent', async () => {
  const loud = await call('create_video', { product_id: 3, method: 'prompt', prompt: 'x', sound: 'loud' });
  expect(loud.isError).toBe(true);
  expect((loud.content[0] as { text: string }).text).toMatch(/sound/);
  expect((await call('create_video', { product_id: 3, method: 'prompt', prompt: 'x', voice_line: 'a'.repeat(101) })).isError).toBe(true);
  expect(calls).toEqual([]);
});
