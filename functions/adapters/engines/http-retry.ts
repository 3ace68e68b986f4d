/**
 * Retries, backoff and timeouts for the hosted engines' HTTP calls (fal.ai over fetch, Bedrock
 * through the SDK). One policy shape for both, with the sleep injectable so tests run in
 * milliseconds and can assert on the delays that would have been waited.
 *
 * Cancellation convention: an engine call runs under one AbortSignal whose `reason` is already the
 * EngineError to surface (`cancelled` when the caller aborted, `provider_timeout` when the overall
 * deadline passed). Everything here that stops because of that signal rethrows its reason, so the
 * right error reaches the caller from whichever await was pending.
 */
import { EngineError, isEngineError } from '#ports/engine';

export interface BackoffPolicy {
  /** Attempts in all, the first one included (1 = no retry). */
  maxAttempts: number;
  /** Delay before the first retry; doubles with each retry up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails as unavailable instead. */
  maxRetryAfterMs: number;
  /** Jitter source in [0, 1). */
  random: () => number;
  /** Waits; rejects with the signal's reason when it aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  sleep: abortableSleep,
};

export function backoffPolicy(overrides: Partial<BackoffPolicy> = {}): BackoffPolicy {
  const merged = { ...DEFAULT_BACKOFF };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** The reason to rethrow when `signal` aborted: an EngineError as is, anything else as `cancelled`. */
export function abortReason(signal: AbortSignal): EngineError {
  const reason: unknown = signal.reason;
  if (isEngineError(reason)) return reason;
  return new EngineError('cancelled', 'The generation was cancelled', { cause: reason });
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Delay before retry number `retry` (0 = the first retry): exponential with "equal jitter" (half
 * fixed, half random), so clients spread out but never retry instantly. A server's Retry-After is a
 * floor, never shortened by jitter.
 */
export function backoffDelayMs(retry: number, policy: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>, retryAfterMs?: number | null): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = ceiling / 2 + policy.random() * (ceiling / 2);
  return Math.round(retryAfterMs != null ? Math.max(retryAfterMs, jittered) : jittered);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** Statuses worth another try: rate limiting and the server side being down or slow. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status <= 599);
}

export interface RetryingFetchOptions {
  /** What this call is, for messages: "fal submit", "fal status". */
  describe: string;
  /** Per-attempt limit, body included (AbortSignal.timeout). */
  timeoutMs: number;
  /** The engine call's signal (see the cancellation convention above). */
  signal?: AbortSignal;
  backoff: BackoffPolicy;
  /** Default: 429, 408 and 5xx. */
  retryOn?: (status: number) => boolean;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${causeText}`;
  }
  return String(error);
}

/**
 * fetch with a per-attempt timeout and retries on network errors, timeouts and retryable statuses
 * (Retry-After respected). Returns the last response when it is not retryable or attempts ran out,
 * so the caller maps the status; throws an EngineError when no response came at all.
 */
export async function fetchWithRetry(url: string, init: RequestInit, options: RetryingFetchOptions): Promise<Response> {
  const { backoff, signal } = options;
  const retryOn = options.retryOn ?? isRetryableStatus;
  let lastProblem = '';
  let timedOut = false;
  for (let attempt = 0; attempt < backoff.maxAttempts; attempt++) {
    if (signal?.aborted) throw abortReason(signal);
    const attemptSignal = signal
      ? AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)])
      : AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: attemptSignal });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      timedOut = attemptSignal.aborted;
      lastProblem = timedOut ? `no answer within ${Math.round(options.timeoutMs / 1000)} s` : errorText(error);
      if (attempt + 1 < backoff.maxAttempts) {
        await backoff.sleep(backoffDelayMs(attempt, backoff), signal);
        continue;
      }
      break;
    }
    if (!retryOn(response.status) || attempt + 1 >= backoff.maxAttempts) return response;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    if (retryAfterMs !== null && retryAfterMs > backoff.maxRetryAfterMs) return response;
    // Drain what is left so the connection can be reused.
    await response.arrayBuffer().catch(() => undefined);
    await backoff.sleep(backoffDelayMs(attempt, backoff, retryAfterMs), signal);
  }
  const message = `${options.describe}: ${lastProblem} (after ${backoff.maxAttempts} attempts)`;
  throw timedOut
    ? new EngineError('provider_timeout', `The generation provider did not answer in time (${message})`)
    : new EngineError('provider_unavailable', `The generation provider could not be reached (${message})`);
}

/**
 * Runs `task` with one AbortSignal that aborts with `cancelled` when the caller's signal aborts and
 * with `provider_timeout` when `timeoutMs` passes, and cleans both up afterwards.
 */
export async function withDeadline<T>(
  what: string,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (callerSignal?.aborted) throw new EngineError('cancelled', `${what} was cancelled`, { cause: callerSignal.reason });
  const onCallerAbort = () => controller.abort(new EngineError('cancelled', `${what} was cancelled`, { cause: callerSignal?.reason }));
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new EngineError('provider_timeout', `${what} took longer than ${Math.round(timeoutMs / 1000)} s; try again later`)),
    timeoutMs,
  );
  try {
    return await task(controller.signal);
  } catch (error) {
    // Whatever was pending when the signal fired (a fetch, a sleep) may reject with its own error.
    if (controller.signal.aborted) throw abortReason(controller.signal);
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
