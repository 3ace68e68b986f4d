/** The shared retry/backoff/timeout helpers the hosted engines use. */
import {
  abortableSleep,
  backoffDelayMs,
  backoffPolicy,
  isRetryableStatus,
  parseRetryAfter,
  withDeadline,
} from '#adapters/engines/http-retry';
import { EngineError } from '#ports/engine';

describe('backoff', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles per retry with equal jitter, capped', () => {
    expect(backoffDelayMs(0, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffDelayMs(0, { ...policy, random: () => 0.999999 })).toBe(100);
    expect(backoffDelayMs(3, { ...policy, random: () => 0 })).toBe(400);
    expect(backoffDelayMs(10, { ...policy, random: () => 0.999999 })).toBe(1_000);
  });

  it('never waits less than Retry-After', () => {
    expect(backoffDelayMs(0, { ...policy, random: () => 0.5 }, 3_000)).toBe(3_000);
    expect(backoffDelayMs(4, { ...policy, random: () => 0.999999 }, 10)).toBe(1_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('retries 429, 408 and 5xx only', () => {
    expect([429, 408, 500, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });

  it('a policy keeps defaults for what is not overridden', () => {
    expect(backoffPolicy({ maxAttempts: 2, sleep: undefined })).toMatchObject({ maxAttempts: 2, baseDelayMs: 500 });
  });
});

describe('deadlines and cancellation', () => {
  it('abortableSleep rejects with the signal\'s EngineError reason', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(10_000, controller.signal);
    controller.abort(new EngineError('provider_timeout', 'too slow'));
    await expect(sleeping).rejects.toMatchObject({ code: 'provider_timeout' });
  });

  it('withDeadline: the deadline is provider_timeout, the caller\'s abort is cancelled', async () => {
    await expect(withDeadline('Work', 30, undefined, (signal) => abortableSleep(5_000, signal))).rejects.toMatchObject({
      code: 'provider_timeout',
      retryable: true,
    });
    const controller = new AbortController();
    const pending = withDeadline('Work', 5_000, controller.signal, (signal) => abortableSleep(5_000, signal));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled', retryable: false });
  });

  it('withDeadline passes results and other errors through', async () => {
    await expect(withDeadline('Work', 1_000, undefined, async () => 42)).resolves.toBe(42);
    await expect(withDeadline('Work', 1_000, undefined, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
