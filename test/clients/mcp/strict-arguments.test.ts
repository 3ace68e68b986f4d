/**
 * Tools refuse arguments they do not know: a mistyped field (`demo_vidoe`) used to be dropped, and
 * create_product answered ok with no demo. Every tool's schema says `additionalProperties: false`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient } from '#client/client';
import { createMcpServer } from '#mcp/server';
import { TOOLS } from '#mcp/tools';

const sent: string[] = [];
// Any method of the typed client: records that something was sent, answers a bare record.
const rs = new Proxy({}, { get: (_target, method) => async () => (sent.push(String(method)), { id: 1 }) }) as unknown as ReactionStudioClient;

let client: Client;
beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(rs).connect(serverSide);
  client = new Client({ name: 'strict-arguments-test', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(() => client?.close());

test('every tool advertises that it takes no argument beyond its own', async () => {
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(TOOLS.length);
  for (const tool of tools) expect([tool.name, tool.inputSchema.additionalProperties]).toEqual([tool.name, false]);
});

test('a mistyped argument is a tool error that names it, and nothing is sent', async () => {
  sent.splice(0);
  const answer = (await client.callTool({ name: 'create_product', arguments: { name: 'Glow', demo_vidoe: 'https://example.com/a.mp4' } })) as CallToolResult;
  expect(answer.isError).toBe(true);
  expect((answer.content[0] as { text: string }).text).toMatch(/demo_vidoe/);
  expect(sent).toEqual([]);
});

test('every argument of every tool is described for the model', async () => {
  const { tools } = await client.listTools();
  const undescribed = tools.flatMap((tool) =>
    Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>)
      .filter(([, schema]) => !schema.description)
      .map(([name]) => `${tool.name}.${name}`),
  );
  expect(undescribed).toEqual([]);
});
