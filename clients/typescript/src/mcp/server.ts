/**
 * The MCP server over one typed client: every tool of the table registered with its zod schema, its
 * answer turned into tool content, and any failure into a tool error (results.ts). The server holds
 * no state of its own, so the HTTP transport builds one per request and stdio one per process.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient } from '../client';
import type { Job } from '../types';
import { Noted, dataResult, errorResult } from './results';
import type { ToolContext } from './tool';
import { TOOLS } from './tools';

const MCP_SERVER_NAME = 'reaction-studio';
const VERSION = '0.1.0';
/** A wait over stdio may last as long as a job may (a generation step's own limit). */
const DEFAULT_MAX_WAIT_MS = 15 * 60_000;

export interface McpServerOptions {
  /** The longest a tool's `wait` may last. */
  maxWaitMs?: number;
  /** Between two polls of a wait (default the client's 1 s). */
  intervalMs?: number;
}

export function createMcpServer(rs: ReactionStudioClient, options: McpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: VERSION },
    { instructions: 'Reaction Studio makes short vertical reaction videos for products: create a product with its demo, suggest hooks, create a video (wait for it or poll get_job), then list, download or publish it.' },
  );
  for (const definition of TOOLS) {
    server.registerTool(
      definition.name,
      { title: definition.title, description: definition.description, inputSchema: definition.input, annotations: definition.annotations },
      async (args, extra) => {
        const context: ToolContext = {
          signal: extra.signal,
          progress: progressReporter(extra.sendNotification, extra._meta?.progressToken),
          maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
          intervalMs: options.intervalMs,
        };
        try {
          const value = await definition.run(rs, args, context);
          return value instanceof Noted ? dataResult(value.value, value.note) : dataResult(value);
        } catch (error) {
          return errorResult(error);
        }
      },
    );
  }
  return server;
}

type SendNotification = (notification: ServerNotification) => Promise<void>;

/**
 * `notifications/progress` for each move of a job, when the caller gave a token. The protocol wants
 * progress to grow with every notification, so a move that leaves the percentage where it was (a
 * queue position, a stage change at the same figure) is not sent.
 */
function progressReporter(send: SendNotification, token: string | number | undefined): (job: Job) => void {
  if (token === undefined) return () => {};
  let sent = -1;
  return (job) => {
    if (job.progress <= sent) return;
    sent = job.progress;
    const where = job.queue_position ? `, number ${job.queue_position} in the queue` : '';
    // The caller may have gone; its absence ends the wait through the signal, not here.
    send({ method: 'notifications/progress', params: { progressToken: token, progress: job.progress, total: 100, message: `job ${job.id}: ${job.status}, ${job.stage}${where}` } }).catch(() => {});
  };
}
