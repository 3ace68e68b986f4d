/**
 * The live-updates WebSocket's three routes as API Gateway calls them (and the local server, which
 * builds the same events): `$connect` takes the ticket in the query, `$default` answers each message
 * (API Gateway sends the answer's body back down the socket: the route has a route response),
 * `$disconnect` forgets the socket. A client fault is an answer, never a thrown failure.
 */
import * as z from 'zod/mini';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isAppError } from '#domain/errors';
import { updateError, type ServerMessage } from '#domain/live-updates';
import { errorBody } from '#http/respond';
import type { Ports } from '#ports/ports';
import { answerUpdateMessage, closeUpdateSocket, openUpdateSocket } from '#use-cases/update-sockets';

/** The parts of API Gateway's WebSocket event (payload 1.0 shape) the routes read. */
export const socketEvent = z.object({
  requestContext: z.object({
    routeKey: z.string(),
    connectionId: z.string().check(z.minLength(1), z.maxLength(128)),
    requestId: z.optional(z.string()),
  }),
  queryStringParameters: z.optional(z.nullable(z.record(z.string(), z.string()))),
  body: z.optional(z.nullable(z.string())),
  isBase64Encoded: z.optional(z.boolean()),
});
export type SocketEvent = z.infer<typeof socketEvent>;

export type SocketDeps = Pick<Ports, 'updateSockets' | 'jobs' | 'products' | 'avatars' | 'blobs' | 'now'>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const done: APIGatewayProxyStructuredResultV2 = { statusCode: 200 };
const say = (message: ServerMessage): APIGatewayProxyStructuredResultV2 => ({ statusCode: 200, body: JSON.stringify(message) });

export async function answerSocketEvent(deps: SocketDeps, event: SocketEvent): Promise<APIGatewayProxyStructuredResultV2> {
  const { routeKey, connectionId } = event.requestContext;
  switch (routeKey) {
    case '$connect':
      return connect(deps, event);
    case '$disconnect':
      await closeUpdateSocket(deps, connectionId);
      return done;
    default: {
      if (event.isBase64Encoded) return say(updateError('unsupported_media_type', 'Binary messages are not taken: send JSON text'));
      return say(await answerUpdateMessage(deps, connectionId, event.body ?? ''));
    }
  }
}

/** A refused handshake is an HTTP answer: the envelope, as the REST API words its 401s. */
async function connect(deps: SocketDeps, event: SocketEvent): Promise<APIGatewayProxyStructuredResultV2> {
  try {
    await openUpdateSocket(deps, event.requestContext.connectionId, event.queryStringParameters?.ticket);
    return done;
  } catch (error) {
    if (!isAppError(error) || !error.expose) throw error;
    const body = errorBody({ code: error.code, message: error.message }, event.requestContext.requestId ?? randomUUID());
    return { statusCode: error.status, headers: JSON_HEADERS, body: JSON.stringify(body) };
  }
}
