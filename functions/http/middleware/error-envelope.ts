/**
 * Turns any thrown error into the contract's envelope. AppErrors below 500 keep their message;
 * everything else becomes a 500 whose body holds only the request id, the cause going to the log.
 */
import type middy from '@middy/core';
import { AppError, isAppError } from '#domain/errors';
import type { ApiContext, ApiEvent, ApiResult } from '#http/api-types';
import { errorResult } from '#http/respond';
import { logger } from '#functions/logger';

export function errorEnvelope(): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    onError: (request) => {
      const error = request.error;
      const appError = isAppError(error) ? error : new AppError('internal_error', 'Internal server error', { cause: error });
      if (appError.status >= 500) logger.error('request failed', { error: error as Error });
      request.response = errorResult(appError, request.context.api?.requestId ?? request.context.awsRequestId ?? 'unknown');
    },
  };
}
