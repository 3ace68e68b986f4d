/**
 * Builds a handler group's Lambda entry point: the middlewares every endpoint shares, then a dispatch
 * on the resolved route's operation. Handler modules only parse, call the domain and answer.
 */
import middy from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult, AuthenticatedRequest, Operation, PublicOperation } from './api-types';
import { requestContext } from './middleware/request-context';
import { errorEnvelope } from './middleware/error-envelope';
import { authenticate, requireScopes } from './middleware/authenticate';
import { rateLimit } from './middleware/rate-limit';
import { AppError } from '../domain/errors';

export type OperationTable = Record<string, Operation | { public: PublicOperation }>;

export function createApiHandler(operations: OperationTable) {
  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(requestContext())
    .use(errorEnvelope())
    .use(authenticate())
    .use(rateLimit())
    .use(requireScopes())
    .handler(async (_event, context) => {
      const api = context.api!;
      const operation = operations[api.route.operation];
      // A route served by another group reached this one: only possible through misconfiguration.
      if (!operation) throw new AppError('not_found', `No route for ${api.event.rawPath}`);
      if ('public' in operation) return operation.public(api);
      return operation(api as AuthenticatedRequest);
    });
}
