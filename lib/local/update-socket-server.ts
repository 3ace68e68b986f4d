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
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { LIVE_UPDATE_LIMITS, LOCAL_UPDATES_PATH } from '#domain/live-updates';
import type { PortSource } from '#ports/ports';
import type { UpdatePusher } from '#ports/update-sockets';
import { errorBody } from '#http/respond';
import { lambdaContext } from './apigw-event';

type SocketHandler = (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const HANDLER_ENTRY = resolve(__dirname, '..', '..', 'functions', 'handlers', 'update-socket.ts');

export interface SocketLimits {
  idleMs: number;
  maxMs: number;
}
const API_GATEWAY_LIMITS: SocketLimits = { idleMs: LIVE_UPDATE_LIMITS.idleS * 1000, maxMs: LIVE_UPDATE_LIMITS.socketMaxS * 1000 };


export interface LocalUpdateSockets {
  /** Answers the server's upgrade requests. */
  attach(server: Server): void;
  pusher: UpdatePusher;
  /** Closes every socket (1001, going away): the stack is stopping. */
  closeAll(): void;
}

type Call = (routeKey: string, extra?: Record<string, unknown>) => Promise<APIGatewayProxyStructuredResultV2>;

export function localUpdateSockets(options: { dependencies: PortSource; limits?: Partial<SocketLimits> }): LocalUpdateSockets {
  const limits = { ...API_GATEWAY_LIMITS, ...options.limits };
  const open = new Map<string, WebSocket>();
  let handler: SocketHandler | undefined;
  // Loaded on the first upgrade, as the HTTP groups' handlers are.
  const handlerOf = (): SocketHandler =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (handler ??= (require(HANDLER_ENTRY).createHandler as (d: PortSource) => SocketHandler)(options.dependencies));
  /** The $connect that accepted a handshake, found again once `ws` has completed it. */
  const accepted = new WeakMap<IncomingMessage, { connectionId: string; call: Call }>();

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: LIVE_UPDATE_LIMITS.clientMessageBytes,
    // `ws` has checked the handshake (RFC 6455, version 13) before this runs: $connect decides, and
    // its refusal is the handshake's HTTP answer, as API Gateway gives it.
    verifyClient: ({ req }, done) => {
      const { connectionId, call } = connectionFor(handlerOf);
      const query = Object.fromEntries(new URL(req.url ?? '/', 'http://localhost').searchParams);
      call('$connect', { queryStringParameters: Object.keys(query).length > 0 ? query : undefined, headers: { ...req.headers } })
        .then((connected) => {
          const status = connected.statusCode ?? 200;
          if (status !== 200) return done(false, status, connected.body ?? '', { ...(connected.headers as Record<string, string> | undefined) });
          accepted.set(req, { connectionId, call });
          done(true);
        })
        .catch((error) => {
          console.error('local update socket: $connect failed', error);
          done(false, 500, JSON.stringify(errorBody({ code: 'internal_error', message: 'The socket could not be opened' }, connectionId)), JSON_TYPE);
        });
    },
  });
  sockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const connection = accepted.get(request);
    if (connection) serveSocket({ socket, ...connection, limits, open });
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname !== LOCAL_UPDATES_PATH) return refuse(socket, 404, 'not_found', `No WebSocket here: live updates are at ${LOCAL_UPDATES_PATH}`);
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
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

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function connectionFor(handlerOf: () => SocketHandler): { connectionId: string; call: Call } {
  const connectionId = randomBytes(12).toString('base64url');
  const call: Call = (routeKey, extra = {}) => {
    const requestId = randomBytes(12).toString('base64url');
    const event = { requestContext: { routeKey, connectionId, requestId, eventType: routeKey.replace('$', '').toUpperCase(), stage: 'local', apiId: 'local' }, ...extra };
    return handlerOf()(event, lambdaContext('reaction-studio-update-socket', requestId));
  };
  return { connectionId, call };
}

interface Served {
  socket: WebSocket;
  connectionId: string;
  call: Call;
  limits: SocketLimits;
  open: Map<string, WebSocket>;
}

/** An open socket: its messages answered one at a time, in order; timers as API Gateway keeps them. */
function serveSocket({ socket, connectionId, call, limits, open }: Served): void {
  let queue = Promise.resolve();
  const close = (code: number, reason: string) => socket.close(code, reason);
  const maxTimer = setTimeout(() => close(1001, 'Connections last at most 2 hours: take a new ticket and connect again'), limits.maxMs);
  let idleTimer = setTimeout(() => close(1001, 'Idle for 10 minutes'), limits.idleMs);
  open.set(connectionId, socket);

  socket.on('message', (data: RawData, isBinary: boolean) => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => close(1001, 'Idle for 10 minutes'), limits.idleMs);
    const body = isBinary ? { body: '', isBase64Encoded: true } : { body: data.toString(), isBase64Encoded: false };
    queue = queue
      .then(() => call('$default', body))
      .then((answer) => {
        if (answer.body && socket.readyState === socket.OPEN) socket.send(answer.body);
      })
      .catch((error) => console.error('local update socket: a message failed', error));
  });
  socket.on('error', () => socket.terminate());
  socket.on('close', () => {
    clearTimeout(maxTimer);
    clearTimeout(idleTimer);
    if (open.get(connectionId) !== socket) return;
    open.delete(connectionId);
    queue = queue.then(() => call('$disconnect').then(() => undefined)).catch((error) => console.error('local update socket: $disconnect failed', error));
  });
}

/** Refused before any handshake (no socket lives at that path): an HTTP answer, then the connection ends. */
function refuse(socket: Duplex, status: number, code: 'not_found', message: string): void {
  const body = Buffer.from(JSON.stringify(errorBody({ code, message }, randomBytes(12).toString('base64url'))));
  const head = Object.entries({ ...JSON_TYPE, 'content-length': String(body.length), connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} Not Found\r\n${head}\r\n`), body]), () => socket.destroy());
}
