/**
 * The local HTTP entry: plays API Gateway's part. It matches the route table, enforces the route's
 * body limit while the body streams in (413 before the rest is read), builds the v2 event and calls
 * the handler group's Lambda entry point in-process.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Socket } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { HANDLER_GROUPS, matchRoute, routeKey, type HandlerGroup } from '../../functions/routes';
import { ERROR_CODES, type ErrorCode } from '../../functions/domain/errors';
import { lambdaContext, toApiGatewayEvent, writeResult } from './apigw-event';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

const REPO_ROOT = resolve(__dirname, '..', '..');
const loaded = new Map<HandlerGroup, LambdaHandler>();

function handlerOf(group: HandlerGroup): LambdaHandler {
  let handler = loaded.get(group);
  if (!handler) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require(resolve(REPO_ROOT, HANDLER_GROUPS[group].entry)).handler as LambdaHandler;
    loaded.set(group, handler);
  }
  return handler;
}

/** Bodies of routes we do not know are never read; this is what API Gateway would accept at most. */
const UNKNOWN_ROUTE_BODY_LIMIT = 0;

export function createLocalApiServer(): Server {
  const server = createServer({ requestTimeout: 120_000, headersTimeout: 30_000 }, (request, response) => {
    handle(request, response).catch((error) => {
      console.error('local server: unexpected failure', error);
      if (!response.headersSent) sendError(response, 'internal_error', 'Internal server error', randomUUID());
      else response.destroy();
    });
  });
  // Node answers oversized or malformed headers itself with a bare status; give them our envelope.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const code: ErrorCode = tooLarge ? 'headers_too_large' : 'bad_request';
    const body = JSON.stringify({ error: tooLarge ? 'Request headers are too large' : 'Malformed HTTP request', code });
    socket.end(
      `HTTP/1.1 ${ERROR_CODES[code]} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const match = matchRoute(request.method ?? 'GET', url.pathname);
  const route = match.kind === 'matched' ? match.route : undefined;
  const limit = route?.maxBodyBytes ?? UNKNOWN_ROUTE_BODY_LIMIT;

  const declared = Number(request.headers['content-length'] ?? NaN);
  if (route && Number.isFinite(declared) && declared > limit) {
    return refuseBody(request, response, 'payload_too_large', `Request body is larger than ${limit} bytes`);
  }
  const body = route ? await readLimited(request, limit) : await discard(request);
  if (body === 'too_large') {
    return refuseBody(request, response, 'payload_too_large', `Request body is larger than ${limit} bytes`);
  }

  const event = toApiGatewayEvent(request, url, body, {
    routeKey: route ? routeKey(route) : '$default',
    pathParameters: match.kind === 'matched' ? match.pathParameters : undefined,
  });
  const group: HandlerGroup = route?.group ?? 'meta';
  const result = await handlerOf(group)(event, lambdaContext(`reaction-studio-${group}`, event.requestContext.requestId));
  writeResult(response, result);
}

function readLimited(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    request.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        request.pause();
        resolvePromise('too_large');
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!done) resolvePromise(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

async function discard(request: IncomingMessage): Promise<Buffer> {
  request.resume();
  return Buffer.alloc(0);
}

/** Answers at once and closes the connection so the client stops sending the rest. */
function refuseBody(request: IncomingMessage, response: ServerResponse, code: ErrorCode, message: string): void {
  response.setHeader('connection', 'close');
  sendError(response, code, message, randomUUID());
  response.on('finish', () => request.socket.destroySoon?.() ?? request.socket.end());
}

function sendError(response: ServerResponse, code: ErrorCode, message: string, requestId: string): void {
  const body = JSON.stringify({ error: message, code });
  response.writeHead(ERROR_CODES[code], {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
  });
  response.end(body);
}
