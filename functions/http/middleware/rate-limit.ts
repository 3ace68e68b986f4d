/**
 * 120 requests per rolling minute per account (the local stack may be started with another number),
 * shared by all its keys and all instances. A dry run (`?dry_run=true` where the route takes it)
 * reads the limit without counting: it answers the same headers, and 429 when the account is over.
 */
import type middy from '@middy/core';
import { AppError } from '#domain/errors';
import type { RateDecision } from '#ports/rate-limiter';
import type { ApiContext, ApiEvent, ApiResult } from '#http/api-types';
import { isDryRun } from '#http/params';

const MINUTE_MS = 60_000;

function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetS),
  };
}

export function rateLimit(
  fixedRule?: { limit: number; windowMs: number },
): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    before: async (request) => {
      const api = request.context.api!;
      if (!api.principal) return;
      const rule = fixedRule ?? { limit: api.deps.apiRequestsPerMinute, windowMs: MINUTE_MS };
      const limit = { bucket: `api:${api.principal.accountId}`, ...rule };
      const decision = isDryRun(api) ? await api.deps.rateLimits.peek(limit) : await api.deps.rateLimits.consume(limit);
      Object.assign(api.responseHeaders, rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw new AppError('rate_limited', `Rate limit of ${rule.limit} requests per minute exceeded; retry in ${decision.retryAfterS} s`, {
          headers: { 'retry-after': String(decision.retryAfterS) },
        });
      }
    },
  };
}
