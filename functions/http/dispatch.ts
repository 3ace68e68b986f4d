import type { ApiContext, ApiEvent, ApiRequest, ApiResult, AuthenticatedRequest } from './api-types';
import { AppError } from '#domain/errors';
import type { AllOf, PortsIn } from '#ports/ports';

/* eslint-disable @typescript-eslint/no-explicit-any -- any operation fits a table; PortsOf reads what each one needs. */
type AnyOperation = (request: AuthenticatedRequest<any>) => Promise<ApiResult>;
type AnyPublicOperation = (request: ApiRequest<any>) => Promise<ApiResult>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export type OperationTable = Record<string, AnyOperation | { public: AnyPublicOperation }>;

/** The ports one table entry's operation is handed. */
type PortsOfEntry<E> = E extends { public: infer O } ? DepsOf<O> : DepsOf<E>;
type DepsOf<O> = O extends (request: infer R) => unknown ? (R extends { deps: infer P } ? P : never) : never;

/** The ports a group of operations reaches: every port any of them names. A handler's wiring must supply all of them. */
export type PortsOf<T extends OperationTable> = PortsIn<AllOf<{ [K in keyof T]: PortsOfEntry<T[K]> }[keyof T]>>;

/** Runs the operation the resolved route names. */
export function dispatchTo<P>(operations: OperationTable) {
  return async (_event: ApiEvent, context: ApiContext<P>): Promise<ApiResult> => {
    const api = context.api!;
    const operation = operations[api.route.operation];
    // A route served by another group reached this one: only possible through misconfiguration.
    if (!operation) throw new AppError('not_found', `No route for ${api.event.rawPath}`);
    if ('public' in operation) return operation.public(api);
    return operation(api as AuthenticatedRequest<P>);
  };
}
