/**
 * Retries for plain HTTP calls to other services (the fal.ai queue, the scheduling providers),
 * built on p-retry: it runs the attempts, counts them and stops when the caller's signal aborts.
 * The waits between attempts are ours, because a server's Retry-After is a floor p-retry knows
 * nothing of, and because tests inject the sleep and the jitter so they run in milliseconds and can
 * assert on the delays that would have been waited.
 *
 * The callers turn what comes out into their own errors: the last answer when it is not retryable
 * or attempts ran out (the caller maps its status), NoAnswer when no answer came at all, and the
 * signal's reason (or the sleep's rejection) when the caller aborted.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pRetry from 'p-retry';

export interface BackoffPolicy {
  /** Attempts in all, the first one included (1 = no retry). */
  maxAttempts: number;
  /** Delay before the first retry; doubles with each retry up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the last answer is returned instead. */
  maxRetryAfterMs: number;
  /** Jitter source in [0, 1). */
  random: () => number;
  /** Waits; rejects when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Waits `ms`; rejects at once when `signal` aborts (callers map the rejection by looking at their signal). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(Math.max(0, ms), undefined, { signal });
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

/** What an attempt produced: a response, or what the caller read out of it within the attempt. */
export interface Answered {
  status: number;
  headers: Headers;
}

export interface RetryingFetchOptions<A extends Answered> {
  policy: BackoffPolicy;
  /** Per attempt, `read` included. */
  attemptTimeoutMs: number;
  /** The whole call: an attempt gets no more than what is left, and a wait that would end past it is not started. */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** Reads the response within the attempt (its timeout covers the read); a read that fails is a failed attempt. */
  read: (response: Response) => Promise<A>;
  retryStatus: (status: number) => boolean;
  /** Whether an attempt that got no answer (network error, timeout) may be sent again. */
  retryFailures: boolean;
}

/** No answer came: the last attempt failed on the wire, timed out, or the deadline passed before it. */
export class NoAnswer extends Error {
  constructor(
    readonly timedOut: boolean,
    /** The limit that passed, when `timedOut`. */
    readonly limitMs: number,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(timedOut ? `no answer within ${limitMs} ms` : 'no answer', options);
  }
}

/** Carries a retryable answer through p-retry; the last one is handed back to the caller as is. */
class RetryableAnswer<A extends Answered> extends Error {
  constructor(readonly answer: A) {
    super(`HTTP ${answer.status}`);
  }
}

/**
 * fetch with a per-attempt timeout and retries on failures (when allowed) and retryable statuses,
 * Retry-After respected. Returns the last answer when it is not retryable or attempts ran out;
 * throws NoAnswer when no answer came.
 */
export async function retryingFetch<A extends Answered>(url: string, init: RequestInit, options: RetryingFetchOptions<A>): Promise<A> {
  const { policy, signal } = options;
  const deadline = options.deadlineMs === undefined ? Infinity : Date.now() + options.deadlineMs;
  let attempts = 0;

  const attempt = async (): Promise<A> => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new NoAnswer(true, options.deadlineMs ?? 0, attempts);
    attempts++;
    const limitMs = Math.min(options.attemptTimeoutMs, remaining);
    const timeout = AbortSignal.timeout(limitMs);
    let answer: A;
    try {
      const response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      answer = await options.read(response);
    } catch (error) {
      throw new NoAnswer(timeout.aborted, limitMs, attempts, { cause: error });
    }
    if (options.retryStatus(answer.status)) throw new RetryableAnswer(answer);
    return answer;
  };

  /** The wait before retry number `retry`, or null when this failure is not retried. */
  const waitBefore = (error: Error, retry: number): number | null => {
    if (error instanceof NoAnswer) return options.retryFailures ? backoffDelayMs(retry, policy) : null;
    if (!(error instanceof RetryableAnswer)) return null;
    const retryAfterMs = parseRetryAfter(error.answer.headers.get('retry-after'));
    if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) return null;
    return backoffDelayMs(retry, policy, retryAfterMs);
  };

  try {
    return await pRetry(attempt, {
      retries: Math.max(0, Math.trunc(policy.maxAttempts) - 1),
      // No wait of p-retry's own: ours is taken in shouldRetry, once the retry is decided.
      minTimeout: 0,
      signal,
      shouldRetry: async ({ error, retriesConsumed }) => {
        const waitMs = waitBefore(error, retriesConsumed);
        if (waitMs === null || Date.now() + waitMs >= deadline) return false;
        // Read what is left of an unread body, so the connection can be reused.
        if (error instanceof RetryableAnswer && error.answer instanceof Response) await error.answer.arrayBuffer().catch(() => undefined);
        await policy.sleep(waitMs, signal);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof RetryableAnswer) return error.answer as A;
    throw error;
  }
}
