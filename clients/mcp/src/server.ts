/**
 * The MCP server over one typed client: every tool of the table registered with its zod input schema
 * and its output schema (output-schemas.ts), its answer turned into tool content, and any failure
 * into a tool error (results.ts). The server holds
 * no state of its own, so the HTTP transport builds one per request and stdio one per process.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ReactionStudioClient, Job } from '@reaction-studio/client';
import { Noted, dataResult, errorResult } from './results.js';
import type { ToolContext } from './tool.js';
import { TOOLS } from './tools.js';
import { uploadFileTool } from './local-files.js';
import { outputSchemaOf } from './output-schemas.js';

const MCP_SERVER_NAME = 'reaction-studio';
const VERSION = '0.1.0';
/** A wait over stdio may last as long as a job may (a generation step's own limit). */
const DEFAULT_MAX_WAIT_MS = 15 * 60_000;

export interface McpServerOptions {
  /** Adds upload_file, which reads files from this machine's disk: for the stdio server only (local-files.ts). */
  localFiles?: boolean;
  /** The longest a tool's `wait` may last. */
  maxWaitMs?: number;
  /** Between two polls of a wait (default the client's 1 s). */
  intervalMs?: number;
}

/**
 * The SDK validates a client's answers to an elicitation with this; the server never elicits, so it
 * refuses any, and the SDK's default (Ajv, about 130 KB) is never built or, on Lambda, bundled.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'this server asks no questions (no elicitation)' }),
};

export function createMcpServer(rs: ReactionStudioClient, options: McpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: VERSION },
    { jsonSchemaValidator: NO_ELICITATION, instructions: 'Reaction Studio makes short vertical reaction videos for products: create a product with its demo, suggest hooks, create a video (wait for it or poll get_job), then list, download or publish it.' },
  );
  for (const definition of options.localFiles ? [...TOOLS, uploadFileTool] : TOOLS) {
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.input,
        outputSchema: outputSchemaOf(definition.output),
        annotations: definition.annotations,
      },
      async (args, extra) => {
        const progress = progressReporter(extra.sendNotification, extra._meta?.progressToken);
        const context: ToolContext = {
          signal: extra.signal,
          progress: progress.report,
          maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
          intervalMs: options.intervalMs,
        };
        try {
          const value = await definition.run(rs, args, context);
          return value instanceof Noted ? dataResult(value.value, value.note) : dataResult(value);
        } catch (error) {
          return errorResult(error);
        } finally {
          // The last notification goes out before the result: a client drops progress that comes after.
          await progress.sent();
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
function progressReporter(send: SendNotification, token: string | number | undefined): { report(job: Job): void; sent(): Promise<void> } {
  let highest = -1;
  let queue = Promise.resolve();
  return {
    report(job) {
      if (token === undefined || job.progress <= highest) return;
      highest = job.progress;
      const where = job.queue_position ? `, number ${job.queue_position} in the queue` : '';
      const params = { progressToken: token, progress: job.progress, total: 100, message: `job ${job.id}: ${job.status}, ${job.stage}${where}` };
      // In order, one after the other; the caller may have gone, and its absence ends the wait through the signal, not here.
      queue = queue.then(() => send({ method: 'notifications/progress', params })).catch(() => {});
    },
    sent: () => queue,
  };
}
