/**
 * The MCP tools for a preview's takes without the service: list_takes answers the client's list,
 * approve_job hands a named take to the typed client, and a take that is not a positive integer is a
 * tool error with nothing sent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient } from '#client/client';
import { createMcpServer } from '#mcp/server';
import { exampleData } from '#test-support/api-examples';

const [EXAMPLE_TAKE] = exampleData('GET /videos/jobs/{id}/takes 200');
const TAKES = [
  { ...EXAMPLE_TAKE, take: 1, current: false, preview_url: 'http://x/p1.mp4' },
  { ...EXAMPLE_TAKE, take: 2, current: true, preview_url: 'http://x/p2.mp4' },
];
const calls: { method: string; args: unknown[] }[] = [];
const recorder = (method: string, answer: unknown) => async (...args: unknown[]) => {
  calls.push({ method, args });
  return answer;
};
const rs = { listTakes: recorder('listTakes', TAKES), approveJob: recorder('approveJob', exampleData('POST /videos/jobs/{id}/approve 202')) } as unknown as ReactionStudioClient;

let client: Client;
beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(rs).connect(serverSide);
  client = new Client({ name: 'takes-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(() => client?.close());
beforeEach(() => calls.splice(0));

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

test('list_takes answers the takes of the job it names', async () => {
  const result = await call('list_takes', { job_id: 7 });
  expect(result.isError).toBeFalsy();
  expect(JSON.stringify(result.structuredContent ?? result.content)).toContain('p2.mp4');
  expect(calls).toEqual([{ method: 'listTakes', args: [7] }]);
});

test('approve_job describes take and passes it on; without it the newest is approved', async () => {
  const { tools } = await client.listTools();
  const approve = tools.find((tool) => tool.name === 'approve_job')!.inputSchema.properties as Record<string, { description?: string }>;
  expect(approve.take?.description).toMatch(/list_takes/);
  expect((await call('approve_job', { job_id: 7, take: 1 })).isError).toBeFalsy();
  expect((await call('approve_job', { job_id: 7 })).isError).toBeFalsy();
  expect(calls).toEqual([
    { method: 'approveJob', args: [7, { take: 1 }] },
    { method: 'approveJob', args: [7, {}] },
  ]);
});

test.each([0, 1.5, 'first'])('a take of %p is a tool error and nothing is sent', async (take) => {
  expect((await call('approve_job', { job_id: 7, take })).isError).toBe(true);
  expect(calls).toEqual([]);
});
