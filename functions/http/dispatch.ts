import type { ApiContext, ApiEvent, ApiResult, AuthenticatedRequest, Operation, PublicOperation } from './api-types';
import { AppError } from '#domain/errors';

export type OperationTable = Record<string, Operation | { public: PublicOperation }>;

/** Runs the operation the resolved route names. */
export function dispatchTo(operations: OperationTable) {
  return async (_event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
    const api = context.api!;
    const operation = operations[api.route.operation];
    // A route served by another group reached this one: only possible through misconfiguration.
    if (!operation) throw new AppError('not_found', `No route for ${api.event.rawPath}`);
    if ('public' in operation) return operation.public(api);
    return operation(api as AuthenticatedRequest);
  };
}
