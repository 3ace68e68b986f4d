/** The hosted engines' retry defaults, deadlines and cancellation. */
import { abortableSleep, backoffPolicy, withDeadline } from '#adapters/engines/http-retry';
import { EngineError } from '#ports/engine';

describe('engine defaults', () => {
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
