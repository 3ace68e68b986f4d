/**
 * Retries and deadlines for the hosted engines' HTTP calls (fal.ai over fetch): the shared
 * retrying fetch (#adapters/retrying-fetch) with the engines' defaults and EngineErrors.
 *
 * Cancellation convention: an engine call runs under one AbortSignal whose `reason` is already the
 * EngineError to surface (`cancelled` when the caller aborted, `provider_timeout` when the overall
 * deadline passed). Everything here that stops because of that signal rethrows its reason, so the
 * right error reaches the caller from whichever await was pending.
 */
import { EngineError, isEngineError } from '#ports/engine';
import { NoAnswer, isRetryableStatus, retryingFetch, sleep, type BackoffPolicy } from '#adapters/retrying-fetch';

export type { BackoffPolicy } from '#adapters/retrying-fetch';

const DEFAULT_BACKOFF: BackoffPolicy = {
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

/** Waits; rejects with the signal's reason as an EngineError when it aborts. */
export async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw error;
  }
}

export interface RetryingFetchOptions {
  /** What this call is, for messages: "fal submit", "fal status". */
  describe: string;
  /** Per-attempt limit, body included (AbortSignal.timeout). */
  timeoutMs: number;
  /** The engine call's signal (see the cancellation convention above). */
  signal?: AbortSignal;
  backoff: BackoffPolicy;
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
 * fetch with a per-attempt timeout and retries on network errors, timeouts, 429, 408 and 5xx
 * (Retry-After respected). Returns the last response when it is not retryable or attempts ran out,
 * so the caller maps the status; throws an EngineError when no response came at all.
 */
export async function fetchWithRetry(url: string, init: RequestInit, options: RetryingFetchOptions): Promise<Response> {
  const { signal } = options;
  try {
    return await retryingFetch(url, init, {
      policy: options.backoff,
      attemptTimeoutMs: options.timeoutMs,
      signal,
      read: async (response) => response,
      retryStatus: isRetryableStatus,
      retryFailures: true,
    });
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (!(error instanceof NoAnswer)) throw error;
    const problem = error.timedOut ? `no answer within ${Math.round(options.timeoutMs / 1000)} s` : errorText(error.cause);
    const message = `${options.describe}: ${problem} (after ${error.attempts} attempts)`;
    throw error.timedOut
      ? new EngineError('provider_timeout', `The generation provider did not answer in time (${message})`)
      : new EngineError('provider_unavailable', `The generation provider could not be reached (${message})`);
  }
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
