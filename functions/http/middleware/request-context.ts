/**
 * Resolves the route of the event (from API Gateway's routeKey, or by matching the path for the
 * `$default` catch-all), fixes the request id, and stamps `x-request-id` and the API's revision
 * (`Reaction-Studio-Version`) on every response, and a deprecated route's `Deprecation` and `Sunset`.
 */
import type middy from '@middy/core';
import { randomUUID } from 'node:crypto';
import { API_REVISION, API_VERSION_HEADER, matchRoute, routeByKey } from '#functions/routes';
import { deprecationHeaders } from '#http/deprecation';
import { AppError } from '#domain/errors';
import type { ApiContext, ApiEvent, ApiRequest, ApiResult } from '#http/api-types';
import type { PortSource } from '#ports/ports';
import { logger } from '#functions/logger';

const REQUEST_ID_HEADER = 'x-request-id';

export function requestContext<P>(ports: PortSource<P>): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<P>> {
  return {
    before: (request) => {
      const event = request.event;
      const requestId = event.requestContext?.requestId || randomUUID();
      logger.appendKeys({ request_id: requestId });
      const api: ApiRequest<P> = {
        event,
        route: undefined as never,
        requestId,
        pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
        query: event.queryStringParameters ?? {},
        responseHeaders: { [REQUEST_ID_HEADER]: requestId, [API_VERSION_HEADER]: API_REVISION },
        pending: [],
        // Built on first use: the public routes never reach a port and must not load the SDK clients.
        get deps() {
          return ports();
        },
      };
      request.context.api = api;
      const byKey = event.routeKey && event.routeKey !== '$default' ? routeByKey(event.routeKey) : undefined;
      if (byKey) {
        api.route = byKey;
        Object.assign(api.responseHeaders, deprecationHeaders(byKey));
        return;
      }
      const match = matchRoute(event.requestContext?.http?.method ?? 'GET', event.rawPath ?? '/');
      if (match.kind === 'not_found') throw new AppError('not_found', `No route for ${event.rawPath}`);
      if (match.kind === 'method_not_allowed') {
        throw new AppError('method_not_allowed', `Method ${event.requestContext.http.method} is not allowed here`, {
          headers: { allow: match.allow.join(', ') },
        });
      }
      api.route = match.route;
      api.pathParameters = match.pathParameters;
      Object.assign(api.responseHeaders, deprecationHeaders(match.route));
    },
    after: (request) => finish(request),
    onError: (request) => finish(request),
  };
}

async function finish<P>(request: middy.Request<ApiEvent, ApiResult, Error, ApiContext<P>>): Promise<void> {
  const api = request.context.api;
  if (api?.pending.length) await Promise.allSettled(api.pending);
  if (request.response) {
    request.response.headers = { ...(api?.responseHeaders ?? {}), ...(request.response.headers ?? {}) };
  }
  logger.resetKeys();
}
