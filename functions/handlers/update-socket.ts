/**
 * The live-updates WebSocket API's one function ($connect, $disconnect, $default: lib/cloud/live-updates.ts),
 * the local server's too (lib/local/update-socket-server.ts builds the same events).
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { answerSocketEvent, socketEvent } from '#api/update-socket';
import { updateError } from '#domain/live-updates';
import { logger } from '#functions/logger';
import type { PortSource } from '#ports/ports';
import type { SocketDeps } from '#api/update-socket';
import { lambdaPorts } from '#wiring/lambda';
import type { StoreClasses } from '#wiring/table-stores';
import { DynamoUpdateSocketStore } from '#adapters/dynamodb/update-sockets';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';

/** The sockets, and what a subscription reads to answer with the record as it stands. */
const STORES = {
  updateSockets: DynamoUpdateSocketStore,
  jobs: DynamoJobStore,
  products: DynamoProductStore,
  avatars: DynamoAvatarStore,
} as const satisfies StoreClasses;

type Result = APIGatewayProxyStructuredResultV2;

export const createHandler = (ports: PortSource<SocketDeps>) => {
  return middy<unknown, Result>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler(async (raw): Promise<Result> => {
      const event = socketEvent.safeParse(raw);
      // Only API Gateway (or the local server) calls this: anything else is a wiring bug, not a client's.
      if (!event.success) throw new Error(`not a WebSocket route event: ${event.error.message}`);
      try {
        return await answerSocketEvent(ports(), event.data);
      } catch (error) {
        logger.error('live updates: a socket event failed', { error, routeKey: event.data.requestContext.routeKey });
        const routeKey = event.data.requestContext.routeKey;
        // A message's failure is told on the socket, which stays open; a failed handshake is a 500.
        if (routeKey !== '$connect' && routeKey !== '$disconnect') return { statusCode: 200, body: JSON.stringify(updateError('internal_error', 'Internal server error')) };
        return { statusCode: 500 };
      }
    });
};

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES) })));
