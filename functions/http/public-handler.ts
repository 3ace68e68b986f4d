/**
 * The entry point for routes that need no credential (GET /, and the `$default` catch-all that
 * answers 404/405). It imports nothing of the store, so its Lambda starts without loading the SDK.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '#functions/logger';
import type { ApiContext, ApiEvent, ApiResult, PublicOperation } from './api-types';
import { requestContext } from './middleware/request-context';
import { errorEnvelope } from './middleware/error-envelope';
import { dispatchTo } from './dispatch';
import { noUnexpectedBody } from './middleware/no-body';

export function createPublicHandler(operations: Record<string, { public: PublicOperation }>) {
  return middy<ApiEvent, ApiResult, Error, ApiContext<unknown>>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    // These routes reach no port.
    .use(requestContext<unknown>(() => undefined))
    .use(errorEnvelope())
    .use(noUnexpectedBody())
    .handler(dispatchTo<unknown>(operations));
}
