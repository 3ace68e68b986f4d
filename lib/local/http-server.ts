/**
 * The local HTTP entry: plays API Gateway's part. It matches the route table, refuses what it can
 * before reading a body (too large, a body kind the route cannot take, no valid key for a large
 * body), builds the v2 event and calls the handler group's Lambda entry point in-process.
 *
 * Every answer, protocol errors included, is the contract's envelope with an x-request-id. A refusal
 * sent while the client is still uploading keeps reading (and discarding) the upload, within bounds,
 * before closing: closing at once makes clients fail with EPIPE/ECONNRESET and never read the answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Socket } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { API_PREFIX, API_REVISION, API_VERSION_HEADER, HANDLER_GROUPS, JSON_BODY_LIMIT, matchRoute, routeKey, type HandlerGroup, type RouteDefinition } from '#functions/routes';
import { ERROR_CODES, isAppError, type ErrorCode } from '#domain/errors';
import { bodyKindOf } from '#http/body';
import { errorBody } from '#http/respond';
import { resolvePrincipal, type CredentialContext } from '#http/middleware/authenticate';
import { lambdaContext, toApiGatewayEvent, writeResult } from './apigw-event';
import type { PortSource } from '#ports/ports';
import type { StudioSite } from './studio-site';
import { MCP_BODY_LIMIT, MCP_PATH, serveMcp } from './mcp-endpoint';
import { mayReadOutbox, OUTBOX_PATH } from './outbox-endpoint';
import type { LocalOutbox } from '#adapters/mail/local-outbox';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

const REPO_ROOT = resolve(__dirname, '..', '..');
type HandlerFactory = (dependencies: PortSource) => LambdaHandler;

/** Each group's handler module is loaded on its group's first request, as Lambda would, and built over this stack's dependencies. */
function handlersOver(dependencies: PortSource): (group: HandlerGroup) => LambdaHandler {
  const loaded = new Map<HandlerGroup, LambdaHandler>();
  return (group) => {
    let handler = loaded.get(group);
    if (!handler) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      handler = (require(resolve(REPO_ROOT, HANDLER_GROUPS[group].entry)).createHandler as HandlerFactory)(dependencies);
      loaded.set(group, handler);
    }
    return handler;
  };
}

/** A body larger than this is read only once its key is known to be good. */
const PRE_AUTH_BODY_BYTES = 64 * 1024;

/** After a refusal, how much of the rest of an upload is read (and for how long) so that the client gets to read the answer. */
export interface DrainBounds {
  maxBytes: number;
  maxMs: number;
}
const DRAIN_BOUNDS: DrainBounds = { maxBytes: 128 * 1024 * 1024, maxMs: 30_000 };

/** An answer in the envelope. Some statuses only the HTTP layer gives (408, 417) have no AppError code. */
interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
}

const refusal = (code: ErrorCode, message: string): Refusal => ({ status: ERROR_CODES[code], code, message });
const tooLarge = (limit: number) => refusal('payload_too_large', `Request body is larger than ${limit} bytes`);

/** One exchange: what `refuse` needs to answer it. */
interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  /** The client sent `Expect: 100-continue` and holds its body back until it hears `100 Continue`. */
  awaitingContinue: boolean;
  drain: DrainBounds;
  handlerOf: (group: HandlerGroup) => LambdaHandler;
  dependencies: PortSource;
  /** The studio's pages, for reads outside the API's prefix; without it those are the API's 404. */
  studio?: StudioSite;
  /** The stack's outbox, listed at GET /local/outbox (outbox-endpoint.ts); without it that path is the studio's. */
  outbox?: Pick<LocalOutbox, 'list'>;
}

export function createLocalApiServer(options: {
  dependencies: PortSource;
  drain?: Partial<DrainBounds>;
  studio?: StudioSite;
  outbox?: Pick<LocalOutbox, 'list'>;
}): Server {
  const drain = { ...DRAIN_BOUNDS, ...options.drain };
  const handlerOf = handlersOver(options.dependencies);
  const exchange = (request: IncomingMessage, response: ServerResponse, awaitingContinue: boolean): Exchange => ({
    request,
    response,
    awaitingContinue,
    drain,
    handlerOf,
    dependencies: options.dependencies,
    studio: options.studio,
    outbox: options.outbox,
  });
  // Idle keep-alive connections outlive clients' own idle timeouts (undici's is 4 s): the client, not the
  // server, closes them, so a client never sends a request on a socket the server is closing (ECONNRESET).
  const server = createServer(
    { requestTimeout: 120_000, headersTimeout: 30_000, keepAliveTimeout: 20_000 },
    (request, response) => serve(exchange(request, response, false)),
  );
  // With a listener Node leaves `100 Continue` to us: it is sent only once the early checks pass.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => serve(exchange(request, response, true)));
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    refuse(
      exchange(request, response, false),
      refusal('expectation_failed', `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported; only 100-continue is`),
    ),
  );
  server.on('clientError', answerProtocolError);
  return server;
}

function serve(exchange: Exchange): void {
  guarded(exchange, handle(exchange));
}

function guarded(exchange: Exchange, work: Promise<void>): void {
  work.catch((error) => {
    console.error('local server: unexpected failure', error);
    if (!exchange.response.headersSent) refuse(exchange, refusal('internal_error', 'Internal server error'));
    else exchange.response.destroy();
  });
}

async function handle(exchange: Exchange): Promise<void> {
  const { request, response } = exchange;
  const url = parseTarget(request.url);
  if (!url) return refuse(exchange, refusal('bad_request', 'Malformed request target'));
  if (url.pathname === MCP_PATH) return answerMcp(exchange, url);
  if (url.pathname === OUTBOX_PATH && exchange.outbox) return answerOutbox(exchange, exchange.outbox);
  if (exchange.studio && isStudioRead(request, url)) return exchange.studio(request, response, () => guarded(exchange, answerApi(exchange, url)));
  return answerApi(exchange, url);
}

/** Everything under /api/ is the API's, as CloudFront routes `api/*` on AWS (lib/cloud/studio-hosting.ts); the rest is the studio's. */
const API_ROOT = `/${API_PREFIX.split('/')[1]}`;
const isStudioRead = (request: IncomingMessage, url: URL) =>
  (request.method === 'GET' || request.method === 'HEAD') && url.pathname !== API_ROOT && !url.pathname.startsWith(`${API_ROOT}/`);

async function answerApi(exchange: Exchange, url: URL): Promise<void> {
  const { request, response } = exchange;
  const match = matchRoute(request.method ?? 'GET', url.pathname);
  const route = match.kind === 'matched' ? match.route : undefined;
  if (route) {
    const early = await refusalBeforeBody(exchange, url, route);
    if (early) return refuse(exchange, early);
  }
  if (exchange.awaitingContinue) {
    response.writeContinue();
    exchange.awaitingContinue = false;
  }

  // Unknown routes answer 404/405 without their body; Node discards it once the answer is sent.
  const rule = route ? bodyRule(route, request.headers['content-type']) : undefined;
  const body = rule ? await readLimited(request, rule.limit) : Buffer.alloc(0);
  if (body === 'aborted') return;
  if (body === 'too_large') return refuse(exchange, rule!.overflow);

  const event = toApiGatewayEvent(request, url, body, {
    routeKey: route ? routeKey(route) : '$default',
    pathParameters: match.kind === 'matched' ? match.pathParameters : undefined,
  });
  const group: HandlerGroup = route?.group ?? 'meta';
  const result = await exchange.handlerOf(group)(event, lambdaContext(`reaction-studio-${group}`, event.requestContext.requestId));
  writeResult(response, result);
}

/** The MCP endpoint (every method: it answers what it does not take), as CloudFront routes `/mcp` on AWS. */
async function answerMcp(exchange: Exchange, url: URL): Promise<void> {
  const { request, response } = exchange;
  if (Number(request.headers['content-length'] ?? 0) > MCP_BODY_LIMIT) return refuse(exchange, tooLarge(MCP_BODY_LIMIT));
  if (exchange.awaitingContinue) {
    response.writeContinue();
    exchange.awaitingContinue = false;
  }
  const body = await readLimited(request, MCP_BODY_LIMIT);
  if (body === 'aborted') return;
  if (body === 'too_large') return refuse(exchange, tooLarge(MCP_BODY_LIMIT));
  return serveMcp(request, response, url, body);
}

/** The local stack's mails, newest first, as `{data: [...]}`; not cached, and only for this machine. */
async function answerOutbox(exchange: Exchange, outbox: Pick<LocalOutbox, 'list'>): Promise<void> {
  const { request, response } = exchange;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return refuse(exchange, refusal('method_not_allowed', `${String(request.method).slice(0, 20)} is not allowed on ${OUTBOX_PATH}; GET it`));
  }
  if (!mayReadOutbox(request)) return refuse(exchange, refusal('forbidden', 'The local outbox answers only this machine, addressed as localhost or 127.0.0.1'));
  const body = JSON.stringify({ data: await outbox.list() });
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'x-request-id': randomUUID(),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/**
 * How much of a body the route may get. Bodies over JSON_BODY_LIMIT are only ever taken as multipart
 * (functions/http/body.ts), so a larger one of another kind is refused without being read.
 */
function bodyRule(route: RouteDefinition, contentType: string | undefined): { limit: number; overflow: Refusal } {
  const kind = bodyKindOf(contentType);
  if (kind === 'multipart' || route.maxBodyBytes <= JSON_BODY_LIMIT) return { limit: route.maxBodyBytes, overflow: tooLarge(route.maxBodyBytes) };
  if (kind) return { limit: JSON_BODY_LIMIT, overflow: tooLarge(JSON_BODY_LIMIT) };
  return {
    limit: JSON_BODY_LIMIT,
    overflow: refusal('unsupported_media_type', `A body over ${JSON_BODY_LIMIT} bytes must be multipart/form-data`),
  };
}

async function refusalBeforeBody({ request, dependencies }: Exchange, url: URL, route: RouteDefinition): Promise<Refusal | undefined> {
  const rule = bodyRule(route, request.headers['content-type']);
  const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
  if (declared !== undefined && declared > rule.limit) return rule.overflow;
  // A chunked body has no declared size: it may be large, so it counts as large.
  const large = declared === undefined ? request.headers['transfer-encoding'] !== undefined : declared > PRE_AUTH_BODY_BYTES;
  if (route.auth === 'none' || !large) return undefined;
  try {
    // The handler authenticates again (and records the key's use); this only decides whether to read.
    const context: CredentialContext = {
      pending: [],
      get deps() {
        return dependencies();
      },
    };
    await resolvePrincipal(toApiGatewayEvent(request, url, Buffer.alloc(0), { routeKey: routeKey(route) }), context);
    return undefined;
  } catch (error) {
    if (isAppError(error) && error.expose) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
}

function readLimited(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large' | 'aborted'> {
  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.pause();
        resolvePromise('too_large');
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolvePromise(Buffer.concat(chunks)));
    // The client went away (or sent a broken body, which `clientError` answers): nobody to answer here.
    request.once('error', () => resolvePromise('aborted'));
    request.once('close', () => request.complete || resolvePromise('aborted'));
  });
}

/**
 * Answers with `Connection: close`. A client that waits for `100 Continue` sends no body, so the
 * connection closes at once; otherwise the answer goes out now and the connection ends after the rest
 * of the upload has been read.
 */
function refuse(exchange: Exchange, problem: Refusal): void {
  const { request, response } = exchange;
  const { headers, body } = envelope(problem, randomUUID());
  response.writeHead(problem.status, { ...headers, connection: 'close' });
  if (request.complete || exchange.awaitingContinue) {
    response.end(body);
    return;
  }
  response.write(body);
  drainThenEnd(exchange);
}

function drainThenEnd({ request, response, drain }: Exchange): void {
  let drained = 0;
  const giveUp = () => {
    clearTimeout(timer);
    response.destroy();
  };
  const timer = setTimeout(giveUp, drain.maxMs);
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > drain.maxBytes) giveUp();
  });
  request.once('end', () => {
    clearTimeout(timer);
    response.end();
  });
  request.once('close', () => clearTimeout(timer));
  request.resume();
}

function envelope(problem: Refusal, requestId: string): { headers: Record<string, string>; body: string } {
  // The handlers' envelope, so a refusal before any handler reads the same.
  const body = JSON.stringify(errorBody(problem, requestId));
  return {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      [API_VERSION_HEADER]: API_REVISION,
    },
    body,
  };
}

/** What Node would answer with a bare status line, in the envelope instead. */
function protocolRefusal(error: NodeJS.ErrnoException): Refusal {
  if (error.code === 'HPE_HEADER_OVERFLOW') return refusal('headers_too_large', 'Request headers are too large');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return refusal('request_timeout', 'The request was not received in time');
  return refusal('bad_request', 'Malformed HTTP request');
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** There is no response object here (or one whose request the parser gave up on): write to the socket. */
function answerProtocolError(error: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) return void socket.destroy();
  const problem = protocolRefusal(error);
  const { headers, body } = envelope(problem, randomUUID());
  const head = Object.entries({ ...headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\n${head.join('')}\r\n${body}`, () => socket.destroy());
}
