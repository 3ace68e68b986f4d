/** The retry rules every plain HTTP client shares: backoff, Retry-After, which statuses are retried. */
import { backoffDelayMs, isRetryableStatus, parseRetryAfter } from '#adapters/retrying-fetch';

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
});
