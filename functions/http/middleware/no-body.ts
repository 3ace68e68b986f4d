/** Routes without a body refuse one that says something (http/body.ts refuseUnexpectedBody), after the credential is checked. */
import type middy from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult } from '#http/api-types';
import { refuseUnexpectedBody } from '#http/body';

export function noUnexpectedBody(): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    before: (request) => {
      refuseUnexpectedBody(request.context.api!);
    },
  };
}
