/**
 * The local live-updates socket: plays the API Gateway WebSocket API's part. Upgrades on
 * LOCAL_UPDATES_PATH run the same function's $connect (the ticket in the query; a refusal is the
 * handshake's HTTP answer, as API Gateway gives it), each text message its $default (the answer goes
 * back down the socket, as the route response does), and the end its $disconnect. Like API Gateway it
 * closes a socket silent for 10 minutes and any socket after 2 hours. `pusher` posts to the open
 * sockets, as the Management API does on AWS.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { LIVE_UPDATE_LIMITS, LOCAL_UPDATES_PATH } from '#domain/live-updates';
import type { DependencySource } from '#ports/dependencies';
import type { UpdatePusher } from '#ports/update-sockets';
import { errorBody } from '#http/respond';
import { lambdaContext } from './apigw-event';
import { acceptValue, closeFrame, encodeFrame, FrameReader, isHandshakeKey, OPCODES, type Incoming } from './websocket-frames';

type SocketHandler = (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const HANDLER_ENTRY = resolve(__dirname, '..', '..', 'functions', 'handlers', 'update-socket.ts');

export interface SocketLimits {
  idleMs: number;
  maxMs: number;
}
const API_GATEWAY_LIMITS: SocketLimits = { idleMs: LIVE_UPDATE_LIMITS.idleS * 1000, maxMs: LIVE_UPDATE_LIMITS.socketMaxS * 1000 };

interface OpenSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface LocalUpdateSockets {
  /** Answers the server's upgrade requests. */
  attach(server: Server): void;
  pusher: UpdatePusher;
  /** Closes every socket (1001, going away): the stack is stopping. */
  closeAll(): void;
}

export function localUpdateSockets(options: { dependencies: DependencySource; limits?: Partial<SocketLimits> }): LocalUpdateSockets {
  const limits = { ...API_GATEWAY_LIMITS, ...options.limits };
  const open = new Map<string, OpenSocket>();
  let handler: SocketHandler | undefined;
  // Loaded on the first upgrade, as the HTTP groups' handlers are.
  const handlerOf = (): SocketHandler =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (handler ??= (require(HANDLER_ENTRY).createHandler as (d: DependencySource) => SocketHandler)(options.dependencies));

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade({ request, socket, head, handlerOf, limits, open }).catch((error) => {
      console.error('local update socket: unexpected failure', error);
      socket.destroy();
    });
  };
  return {
    attach: (server) => void server.on('upgrade', onUpgrade),
    pusher: {
      post: async (connectionId, message) => {
        const socket = open.get(connectionId);
        if (!socket) return 'gone';
        socket.send(message);
        return 'sent';
      },
    },
    closeAll: () => {
      for (const socket of open.values()) socket.close(1001, 'The server is stopping');
    },
  };
}

interface Upgrade {
  request: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  handlerOf: () => SocketHandler;
  limits: SocketLimits;
  open: Map<string, OpenSocket>;
}

async function upgrade({ request, socket, head, handlerOf, limits, open }: Upgrade): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== LOCAL_UPDATES_PATH) return refuse(socket, 404, 'not_found', `No WebSocket here: live updates are at ${LOCAL_UPDATES_PATH}`);
  const key = request.headers['sec-websocket-key'];
  if (request.headers.upgrade?.toLowerCase() !== 'websocket' || request.headers['sec-websocket-version'] !== '13' || !isHandshakeKey(key)) {
    return refuse(socket, 400, 'bad_request', 'Not a WebSocket handshake (RFC 6455, version 13)');
  }
  const connectionId = randomBytes(12).toString('base64url');
  const call = (routeKey: string, extra: Record<string, unknown> = {}) => {
    const requestId = randomBytes(12).toString('base64url');
    const event = { requestContext: { routeKey, connectionId, requestId, eventType: routeKey.replace('$', '').toUpperCase(), stage: 'local', apiId: 'local' }, ...extra };
    return handlerOf()(event, lambdaContext('reaction-studio-update-socket', requestId));
  };
  const query = Object.fromEntries(url.searchParams);
  const connected = await call('$connect', { queryStringParameters: Object.keys(query).length > 0 ? query : undefined, headers: { ...request.headers } });
  if ((connected.statusCode ?? 200) !== 200) return answerRefused(socket, connected);
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptValue(key)}\r\n\r\n`);
  serveSocket({ socket, head, connectionId, call, limits, open });
}

interface Served {
  socket: Duplex;
  head: Buffer;
  connectionId: string;
  call: (routeKey: string, extra?: Record<string, unknown>) => Promise<APIGatewayProxyStructuredResultV2>;
  limits: SocketLimits;
  open: Map<string, OpenSocket>;
}

/** An open socket: its messages answered one at a time, in order; timers as API Gateway keeps them. */
function serveSocket({ socket, head, connectionId, call, limits, open }: Served): void {
  const reader = new FrameReader(LIVE_UPDATE_LIMITS.clientMessageBytes);
  let closed = false;
  let queue = Promise.resolve();
  const send = (opcode: number, payload: Buffer) => void (!closed && socket.writable && socket.write(encodeFrame(opcode, payload)));
  const close = (code: number, reason: string) => {
    if (closed) return;
    if (socket.writable) socket.end(closeFrame(code, reason));
    closed = true;
    finish();
  };
  const maxTimer = setTimeout(() => close(1001, 'Connections last at most 2 hours: take a new ticket and connect again'), limits.maxMs);
  let idleTimer = setTimeout(() => close(1001, 'Idle for 10 minutes'), limits.idleMs);
  const finish = () => {
    clearTimeout(maxTimer);
    clearTimeout(idleTimer);
    if (open.get(connectionId) !== self) return;
    open.delete(connectionId);
    queue = queue.then(() => call('$disconnect').then(() => undefined)).catch((error) => console.error('local update socket: $disconnect failed', error));
  };
  const self: OpenSocket = { send: (text) => send(OPCODES.text, Buffer.from(text)), close };
  open.set(connectionId, self);

  const take = (message: Incoming) => {
    if (message.kind === 'fault') return close(message.code, message.reason);
    if (message.kind === 'close') return close(1000, '');
    if (message.kind === 'ping') return send(OPCODES.pong, message.payload);
    if (message.kind === 'pong') return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => close(1001, 'Idle for 10 minutes'), limits.idleMs);
    const body = message.kind === 'text' ? { body: message.text, isBase64Encoded: false } : { body: '', isBase64Encoded: true };
    queue = queue
      .then(() => call('$default', body))
      .then((answer) => {
        if (answer.body) self.send(answer.body);
      })
      .catch((error) => console.error('local update socket: a message failed', error));
  };
  const onData = (chunk: Buffer) => reader.push(chunk).forEach(take);
  socket.on('data', onData);
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    closed = true;
    finish();
  });
  if (head.length > 0) onData(head);
}

function refuse(socket: Duplex, status: number, code: 'not_found' | 'bad_request', message: string): void {
  answerRefused(socket, { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(errorBody({ code, message }, randomBytes(12).toString('base64url'))) });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 500: 'Internal Server Error' };

/** The handshake refused: an HTTP answer, then the connection ends. */
function answerRefused(socket: Duplex, answer: APIGatewayProxyStructuredResultV2): void {
  const status = answer.statusCode ?? 500;
  const body = Buffer.from(answer.body ?? '');
  const headers = { ...(answer.headers as Record<string, string> | undefined), 'content-length': String(body.length), connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n${head}\r\n`), body]), () => socket.destroy());
}
