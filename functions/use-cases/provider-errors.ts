/**
 * How a scheduling provider's trouble reaches our client: something the user can fix is a 4xx saying
 * what to do; the provider being down, slow, rate limited or talking nonsense is a 429 or 503 with
 * Retry-After. Provider trouble is never a 500.
 */
import { AppError } from '#domain/errors';
import { isProviderError, type ProviderError } from '#ports/social-provider';
import type { ProviderName } from '#domain/social';

const DEFAULT_RETRY_AFTER_S = 30;

const retryAfter = (error: ProviderError, fallback = DEFAULT_RETRY_AFTER_S) => Math.max(1, Math.ceil(error.retryAfterS ?? fallback));

export const connectFirst = (provider: ProviderName) =>
  new AppError('conflict', `${provider} is not connected: connect it first: PUT /social/connections/${provider}`);

export const reconnect = (provider: ProviderName) =>
  new AppError('conflict', `${provider} refused the stored API key: reconnect it: PUT /social/connections/${provider}`);

/** An aborted call (our deadline) surfaces as a DOMException from fetch, whatever the adapter wraps. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * Our error for a failed provider call. `doing` completes "provider_a refused …" (e.g. "the post").
 * Errors that are not the provider's (a bug of ours) are returned unchanged and end as a 500.
 */
export function providerFailure(error: unknown, provider: ProviderName, doing = 'the request'): unknown {
  if (isAbort(error)) {
    return new AppError('upstream_unavailable', `${provider} did not answer in time; retry in ${DEFAULT_RETRY_AFTER_S} s`, {
      cause: error,
      headers: { 'retry-after': String(DEFAULT_RETRY_AFTER_S) },
    });
  }
  if (!isProviderError(error)) return error;
  switch (error.kind) {
    case 'rejected':
      return new AppError('bad_request', `${provider} refused ${doing}: ${error.message}`, { cause: error });
    case 'not_found':
      return new AppError('bad_request', `${provider} does not know something ${doing} names: ${error.message} (POST /social/accounts/sync refreshes the channels)`, { cause: error });
    case 'conflict':
      return new AppError('conflict', `${provider} refused ${doing}: ${error.message}`, { cause: error });
    case 'auth':
      return new AppError('conflict', reconnect(provider).message, { cause: error });
    case 'rate_limited': {
      const wait = retryAfter(error, 60);
      return new AppError('rate_limited', `${provider} is rate limiting our requests; retry in ${wait} s`, {
        cause: error,
        headers: { 'retry-after': String(wait) },
      });
    }
    case 'bad_response': {
      const wait = retryAfter(error);
      return new AppError('upstream_unavailable', `${provider} answered something outside its contract; retry in ${wait} s`, {
        cause: error,
        headers: { 'retry-after': String(wait) },
      });
    }
    case 'unavailable':
    case 'timeout':
    default: {
      const wait = retryAfter(error);
      const what = error.kind === 'timeout' ? 'did not answer in time' : 'is unavailable';
      return new AppError('upstream_unavailable', `${provider} ${what}; retry in ${wait} s`, {
        cause: error,
        headers: { 'retry-after': String(wait) },
      });
    }
  }
}

/** The `{code, message}` a client sees for a provider failure reported as data (stale posts, sync results). */
export function failureSummary(error: unknown, provider: ProviderName, doing?: string): { code: string; message: string } {
  const mapped = providerFailure(error, provider, doing);
  if (mapped instanceof AppError && mapped.expose) return { code: mapped.code, message: mapped.message };
  return { code: 'internal_error', message: `Could not reach ${provider}` };
}
