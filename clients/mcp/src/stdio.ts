#!/usr/bin/env node
/**
 * `reaction-studio-mcp`: the MCP server over stdio, for a desktop client that starts it as a child
 * process (docs/mcp.md). The key comes from REACTION_STUDIO_API_KEY, the API from
 * REACTION_STUDIO_API_URL (default the local stack, as the CLI's). stdout carries the protocol, so
 * anything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createClient } from '@reaction-studio/client';
import { createMcpServer } from './server.js';
import { DEFAULT_BASE_URL, pollIntervalMsOf, processEnvironment } from './environment.js';

const env = processEnvironment();
const apiKey = env.REACTION_STUDIO_API_KEY;
if (!apiKey) {
  process.stderr.write('reaction-studio-mcp: set REACTION_STUDIO_API_KEY to an API key (rsk_...)\n');
  process.exit(2);
}
const baseUrl = (env.REACTION_STUDIO_API_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
let intervalMs: number | undefined;
try {
  intervalMs = pollIntervalMsOf(env, 'REACTION_STUDIO_POLL_INTERVAL_MS');
} catch (error) {
  process.stderr.write(`reaction-studio-mcp: ${(error as Error).message}\n`);
  process.exit(2);
}

const server = createMcpServer(createClient({ baseUrl, apiKey, headers: { 'User-Agent': 'reaction-studio-mcp' } }), { intervalMs, localFiles: true });
// The host went away: stop (a wait in flight would otherwise poll on for nobody).
process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
server.connect(new StdioServerTransport()).catch((error: unknown) => {
  process.stderr.write(`reaction-studio-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
