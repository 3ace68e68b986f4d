/**
 * Builds a handler group's Lambda entry point: the middlewares every authenticated endpoint shares,
 * then a dispatch on the resolved route's operation. Handler modules only parse, call and answer.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '#functions/logger';
import type { ApiContext, ApiEvent, ApiResult, HttpPorts } from './api-types';
import { requestContext } from './middleware/request-context';
import { errorEnvelope } from './middleware/error-envelope';
import { authenticate, requireScopes } from './middleware/authenticate';
import { rateLimit } from './middleware/rate-limit';
import { conditionalGet } from './middleware/conditional-get';
import { noUnexpectedBody } from './middleware/no-body';
import { dispatchTo, type OperationTable, type PortsOf } from './dispatch';
import type { PortSource } from '#ports/ports';

/** The ports a group's handler is wired with: the HTTP layer's and every one its operations name. */
export type ApiPorts<T extends OperationTable> = HttpPorts & PortsOf<T>;

export function createApiHandler<T extends OperationTable>(operations: T, ports: PortSource<ApiPorts<T>>) {
  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    // Every line logged during the request carries the function, its request id and whether it was a cold start.
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(requestContext<HttpPorts>(ports))
    .use(errorEnvelope<HttpPorts>((deps) => deps.metrics))
    .use(authenticate())
    .use(rateLimit())
    .use(requireScopes())
    .use(noUnexpectedBody())
    // Last in, so it sees the operation's answer first: an ETag on every successful GET, 304 on a match.
    .use(conditionalGet())
    .handler(dispatchTo(operations));
}
