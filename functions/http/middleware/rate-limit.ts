/** 120 requests per rolling minute per account (locally RATE_LIMIT_PER_MINUTE), shared by all its keys and all instances (DESIGN §2). */
import type middy from '@middy/core';
import { AppError } from '#domain/errors';
import { consume, type RateDecision } from '#adapters/dynamodb/rate-limiter';
import type { ApiContext, ApiEvent, ApiResult } from '#http/api-types';
import { config } from '#functions/config';

export const API_RATE_LIMIT = { limit: 120, windowMs: 60_000 } as const;

/** The contract's limit, unless the local stack was started with RATE_LIMIT_PER_MINUTE (read per request: tests set it at run time). */
const apiRateLimit = () => ({ ...API_RATE_LIMIT, limit: config.rateLimitPerMinute });

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
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
      const rule = fixedRule ?? apiRateLimit();
      const decision = await consume({ bucket: `api:${api.principal.accountId}`, ...rule });
      Object.assign(api.responseHeaders, rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw new AppError('rate_limited', `Rate limit of ${rule.limit} requests per minute exceeded; retry in ${decision.retryAfterS} s`, {
          headers: { 'retry-after': String(decision.retryAfterS) },
        });
      }
    },
  };
}
