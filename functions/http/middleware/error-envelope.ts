/**
 * Turns any thrown error into the contract's envelope. AppErrors below 500 keep their message;
 * everything else becomes a 500 whose body holds only the request id, the cause going to the log. A
 * request refused for its body or file is counted (UploadsRefused).
 */
import type middy from '@middy/core';
import { AppError, isAppError } from '#domain/errors';
import type { ApiContext, ApiEvent, ApiResult } from '#http/api-types';
import { errorResult } from '#http/respond';
import { logger } from '#functions/logger';
import { isUploadRefusal } from '#domain/metrics';
import type { Metrics } from '#ports/metrics';

/** `metricsOf` finds where to count refusals in the request's ports (an API function's; the public routes count none). */
export function errorEnvelope<P>(metricsOf?: (deps: P) => Metrics): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<P>> {
  return {
    onError: (request) => {
      const error = request.error;
      const appError = isAppError(error) ? error : new AppError('internal_error', 'Internal server error', { cause: error });
      if (appError.status >= 500) logger.error('request failed', { error: error as Error });
      // Only an authenticated request carries a file, and its dependencies are built by then.
      const api = request.context.api;
      if (api?.principal && metricsOf && isUploadRefusal(appError.code)) metricsOf(api.deps).record({ name: 'UploadsRefused', reason: appError.code });
      request.response = errorResult(appError, request.context.api?.requestId ?? request.context.awsRequestId ?? 'unknown');
    },
  };
}
