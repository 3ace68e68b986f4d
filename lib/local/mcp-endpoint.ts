/**
 * `/mcp` on the local server: the MCP endpoint of the typed client's package (streamable HTTP), given
 * a web Request made from Node's and answering through Node's response as it streams. Its tools call
 * the API of this very server, over loopback, with the caller's key, as on AWS they call the HTTP API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { handleMcpRequest } from '#mcp/http';
import { API_PREFIX } from '#functions/routes';

export const MCP_PATH = '/mcp';
/** JSON-RPC messages are small; a tool's arguments never carry a file (those go through POST /uploads). */
export const MCP_BODY_LIMIT = 1024 * 1024;

/** Answers one MCP request whose body (at most MCP_BODY_LIMIT) has been read. */
export async function serveMcp(request: IncomingMessage, response: ServerResponse, url: URL, body: Buffer): Promise<void> {
  const { localAddress, localPort } = request.socket;
  const origin = `http://${localAddress?.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const answer = await handleMcpRequest(
    new Request(new URL(url.pathname + url.search, origin), { method: request.method, headers, body: body.length > 0 ? new Uint8Array(body) : undefined }),
    { apiBaseUrl: `${origin}${API_PREFIX}` },
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (!answer.body) return void response.end();
  // The caller going away destroys the response, which cancels the body and so ends the server's waits.
  await pipeline(Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>), response).catch(() => {});
}
