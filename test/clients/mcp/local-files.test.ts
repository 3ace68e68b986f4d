/** upload_file: only the stdio server reads the user's disk, and it names the file in what it answers. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient } from '#client/client';
import { createMcpServer, type McpServerOptions } from '#mcp/server';
import { exampleData } from '#test-support/api-examples';

const UPLOAD = exampleData('POST /uploads 201');

const uploads: { purpose: string; filename: string; size: number; contentType: string }[] = [];
const rs = {
  uploadFile: async (purpose: string, file: { data: Blob; filename: string }, options: { contentType: string }) => {
    uploads.push({ purpose, filename: file.filename, size: file.data.size, contentType: options.contentType });
    return { ...UPLOAD, purpose };
  },
} as unknown as ReactionStudioClient;

async function connected(options: McpServerOptions): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(rs, options).connect(serverSide);
  const client = new Client({ name: 'local-files-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

let dir: string;
let stdio: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-mcp-files-'));
  writeFileSync(join(dir, 'demo.MP4'), Buffer.alloc(1234, 7));
  writeFileSync(join(dir, 'notes.txt'), 'x');
  stdio = await connected({ localFiles: true });
});
afterAll(async () => {
  await stdio?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => uploads.splice(0));

const call = async (client: Client, args: Record<string, unknown>) => (await client.callTool({ name: 'upload_file', arguments: args })) as CallToolResult;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

test('the HTTP server (no local files) does not have the tool at all', async () => {
  const http = await connected({});
  expect((await http.listTools()).tools.map((t) => t.name)).not.toContain('upload_file');
  expect((await call(http, { path: join(dir, 'demo.MP4'), purpose: 'demo_video' })).isError).toBe(true);
  await http.close();
  expect(uploads).toEqual([]);
});

test('a local file is sent as an upload of its purpose, its media type told by its extension', async () => {
  const result = await call(stdio, { path: join(dir, 'demo.MP4'), purpose: 'demo_video' });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual({ ...UPLOAD, purpose: 'demo_video' });
  expect(uploads).toEqual([{ purpose: 'demo_video', filename: 'demo.MP4', size: 1234, contentType: 'video/mp4' }]);
});

test('a missing file or an extension that says nothing is a tool error naming the path; nothing is sent', async () => {
  const missing = await call(stdio, { path: join(dir, 'nope.mp4'), purpose: 'demo_video' });
  expect(missing.isError).toBe(true);
  expect(text(missing)).toContain(`${join(dir, 'nope.mp4')}: no such file`);
  const unknown = await call(stdio, { path: join(dir, 'notes.txt'), purpose: 'music' });
  expect(unknown.isError).toBe(true);
  expect(text(unknown)).toMatch(/notes\.txt: cannot tell the media type/);
  expect(uploads).toEqual([]);
  expect((await call(stdio, { path: join(dir, 'notes.txt'), purpose: 'music', content_type: 'audio/mpeg' })).isError).toBeFalsy();
});
