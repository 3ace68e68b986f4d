/**
 * MCP over streamable HTTP, stateless: each POST gets its own server and transport (web Request in,
 * web Response out, so the same code serves the local twin and a Lambda). Authentication is the
 * API's own: the caller's `Authorization: Bearer rsk_...` is the key every tool call sends, and a
 * request without a key, or with one the API refuses, is answered 401 in the API's error envelope
 * before any MCP message is read.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createClient, isApiError, unwrap, type ReactionStudioClient, type FetchLike } from '@reaction-studio/client';
import { createMcpServer, type McpServerOptions } from './server.js';

export interface McpHttpOptions extends McpServerOptions {
  /** The API the tools call, prefix included (`http://127.0.0.1:3000/api/v1`). */
  apiBaseUrl: string;
  /**
   * `sse` (default) streams progress notifications while a tool waits; `json` answers one JSON body
   * (behind API Gateway, which delivers a Lambda's answer whole, notifications would only arrive with it).
   */
  responses?: 'sse' | 'json';
  fetch?: FetchLike;
  /** Sent back as `x-request-id` (API Gateway's own id on AWS); default a new UUID. */
  requestId?: string;
}

const USER_AGENT = 'reaction-studio-mcp';

export async function handleMcpRequest(request: Request, options: McpHttpOptions): Promise<Response> {
  const requestId = options.requestId ?? globalThis.crypto.randomUUID();
  const answer = await answerMcp(request, options, requestId);
  if (!answer.headers.has('x-request-id')) answer.headers.set('x-request-id', requestId);
  return answer;
}

async function answerMcp(request: Request, options: McpHttpOptions, requestId: string): Promise<Response> {
  // Stateless: no session to resume (GET) or end (DELETE).
  if (request.method !== 'POST') return problem(options.apiBaseUrl, requestId, 405, 'method_not_allowed', `${request.method} is not supported on the MCP endpoint: send JSON-RPC with POST`, { allow: 'POST' });
  const authorization = request.headers.get('authorization');
  const apiKey = bearerKey(authorization);
  if (!apiKey) {
    const message = authorization === null ? 'Missing API key: send Authorization: Bearer rsk_...' : 'Malformed Authorization header: expected "Bearer <API key>"';
    return problem(options.apiBaseUrl, requestId, 401, 'unauthorized', message, { 'www-authenticate': 'Bearer' });
  }
  const refusal = await keyRefusal(options, apiKey, requestId);
  if (refusal) return refusal;

  const rs: ReactionStudioClient = createClient({ baseUrl: options.apiBaseUrl, apiKey, fetch: options.fetch, headers: { 'User-Agent': USER_AGENT } });
  const server = createMcpServer(rs, options);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: options.responses === 'json' });
  await server.connect(transport);
  const close = () => void server.close().catch(() => {});
  try {
    return closingWhenRead(await transport.handleRequest(request), close);
  } catch (error) {
    close();
    throw error;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const bearerKey = (header: string | null) => (header ? BEARER.exec(header)?.[1] : undefined);

/** Keys the API accepted lately (by hash): checking each one costs a request, and a client sends several per tool call. */
const accepted = new Map<string, number>();
const ACCEPTED_FOR_MS = 60_000;
const ACCEPTED_MAX = 1_000;

/**
 * The API's 401 for a key it does not know (or a revoked one), in its own envelope; undefined when the
 * key is good. Only a 401 refuses: a key without the read scope (403) or a busy account (429) is still
 * a key, and its tool calls get the API's own answer.
 */
async function keyRefusal(options: McpHttpOptions, apiKey: string, requestId: string): Promise<Response | undefined> {
  const hash = await sha256(`${options.apiBaseUrl}\n${apiKey}`);
  if ((accepted.get(hash) ?? 0) > Date.now()) return undefined;
  const check = createClient({ baseUrl: options.apiBaseUrl, apiKey, fetch: options.fetch, headers: { 'User-Agent': USER_AGENT }, retry: { maxAttempts: 1 } });
  try {
    await unwrap(check.GET('/usage'));
  } catch (error) {
    if (isApiError(error) && error.status === 401) return problem(options.apiBaseUrl, requestId, 401, 'unauthorized', error.message, { 'www-authenticate': 'Bearer' });
    if (!isApiError(error)) return problem(options.apiBaseUrl, requestId, 503, 'upstream_unavailable', 'The Reaction Studio API could not be reached', { 'retry-after': '5' });
    if (error.status >= 500) return undefined;
  }
  if (accepted.size >= ACCEPTED_MAX) accepted.clear();
  accepted.set(hash, Date.now() + ACCEPTED_FOR_MS);
  return undefined;
}

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The API's error envelope, so an MCP client's HTTP failure reads like the API's: `{error, code}`,
 * the id to quote and the code's entry in the API's error reference (absolute here: this server may
 * answer from another host than the API).
 */
function problem(apiBaseUrl: string, requestId: string, status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body = { error: message, code, request_id: requestId, doc_url: `${apiBaseUrl.replace(/\/+$/, '')}/docs/errors#${code}` };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...headers } });
}

/**
 * The server lives until its answer has been read: an SSE body is still being written while a tool
 * waits. Reading to the end, or the caller going away (the body cancelled), closes it, which aborts
 * any wait in flight.
 */
function closingWhenRead(response: Response, close: () => void): Response {
  if (!response.body) {
    close();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      controller.close();
      close();
    },
    cancel(reason) {
      close();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
