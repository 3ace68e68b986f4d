/**
 * Retries at the fetch level, below openapi-fetch, so every call (typed or helper) gets them and a
 * retried request is the very request first built: same body, same headers, the same
 * Idempotency-Key.
 *
 * What is retried, and why it is safe:
 * - 429 `rate_limited`: the API refuses before doing anything (refused requests do not even count),
 *   so any method may be sent again once `Retry-After` has passed.
 * - 503 with `Retry-After` (`upstream_unavailable`): the API says nothing was done and when to come
 *   back. A 503 without it is not the API's answer (a proxy, a gateway) and is left to the caller.
 * - A network failure (fetch rejects) only for requests that are safe to repeat: GET and HEAD, and
 *   requests that carry an Idempotency-Key (the API answers a repeat with the first result).
 * A wait longer than `maxDelayMs` is not waited: the response goes back to the caller (as an
 * ApiError with `retryAfterS`), who can decide better than a blocked call.
 *
 * Ours, not p-retry (which the service uses): the client runs in browsers, Deno and Bun with
 * openapi-fetch as its only HTTP dependency, and what it retries is an answer, not a thrown error.
 */
import { retryAfterSeconds } from './errors.js';

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4; 1 turns retries off. */
  maxAttempts?: number;
  /** The longest single wait; a `Retry-After` above it is not waited. Default 60 000 (the rate window). */
  maxDelayMs?: number;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  /** The attempt that failed (1 = the first). */
  attempt: number;
  delayMs: number;
  request: Request;
  /** The refused response (429 / 503), or undefined after a network error. */
  status?: number;
  error?: unknown;
}

export const RETRY_DEFAULTS = { maxAttempts: 4, maxDelayMs: 60_000 } as const;
/** Network failures have no Retry-After: a short doubling wait. */
const NETWORK_BACKOFF_MS = 250;

export function retryingFetch(inner: FetchLike, options: RetryOptions = {}, sleep: Sleep = abortableSleep): FetchLike {
  const maxAttempts = Math.max(1, options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts);
  const maxDelayMs = options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      // The original stays unread so that each attempt can send a fresh copy of its body.
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await inner(sent);
      } catch (error) {
        if (last || request.signal.aborted || !replaySafe(request)) throw error;
        const delayMs = NETWORK_BACKOFF_MS * 2 ** (attempt - 1);
        options.onRetry?.({ attempt, delayMs, request, error });
        await sleep(delayMs, request.signal);
        continue;
      }
      const delayMs = last ? null : retryDelayMs(response, attempt);
      if (delayMs === null || delayMs > maxDelayMs) return response;
      // Free the connection before waiting; the body of a refusal carries nothing more than its headers.
      await response.body?.cancel().catch(() => undefined);
      options.onRetry?.({ attempt, delayMs, request, status: response.status });
      await sleep(delayMs, request.signal);
    }
  };
}

/** How long to wait before sending again, or null when the response is not one to retry. */
function retryDelayMs(response: Response, attempt: number): number | null {
  const retryAfterS = retryAfterSeconds(response.headers.get('retry-after'));
  if (response.status === 503) return retryAfterS === null ? null : retryAfterS * 1000;
  if (response.status !== 429) return null;
  // The API always sends Retry-After on a 429; a proxy in front of it may not.
  return retryAfterS === null ? 1000 * 2 ** (attempt - 1) : retryAfterS * 1000;
}

function replaySafe(request: Request): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.headers.has('idempotency-key');
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
