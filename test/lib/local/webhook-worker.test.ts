/**
 * The local webhook worker's timing: an outbox insert wakes it at once, a tick that found work is
 * followed soon by another, and an idle stack is polled only at the idle interval.
 */
import type { Ports } from '#ports/ports';
import type { WebhookStore } from '#ports/webhook-store';
import type { WebhookEvent } from '#domain/webhooks';
import { localWebhookWorker } from '#local/webhook-worker';
import { testDependencies } from '#test-support/wiring';

/**
 * A webhook store that counts the worker's polls (one per tick) and has `events` to fan out, one per
 * tick; `hold()` keeps the next tick at its poll until the function it returns is called.
 */
function idleStore(events: WebhookEvent[] = []) {
  const polls: number[] = [];
  let gate = Promise.resolve();
  const webhooks = {
    pendingEvents: async () => {
      polls.push(Date.now());
      await gate;
      return events.splice(0, 1);
    },
    listEndpoints: async () => [],
    fanOut: async () => true,
    dueDeliveries: async () => [],
  } as unknown as WebhookStore;
  const hold = () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    return () => {
      gate = Promise.resolve();
      release();
    };
  };
  // Each event's body is made at fan-out, endpoints or not: its job is gone, so the body says so.
  const jobs = { get: async () => undefined } as unknown as Ports['jobs'];
  return { polls, hold, deps: testDependencies({ webhooks, jobs, now: () => new Date() }) };
}

const TICKS = { busyMs: 10, idleMs: 60_000 };

// The worker's timers on a clock the tests move: what a tick does is settled before the clock moves on.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());
const passes = (ms: number) => jest.advanceTimersByTimeAsync(ms);

test('idle, it polls at the idle interval; a wake ticks at once, and during a tick, right after it', async () => {
  const { polls, hold, deps } = idleStore();
  const worker = localWebhookWorker(() => deps, () => undefined, TICKS);
  worker.start();
  try {
    await passes(TICKS.busyMs);
    expect(polls).toHaveLength(1);
    await passes(TICKS.idleMs - 1);
    expect(polls).toHaveLength(1);
    await passes(1);
    expect(polls).toHaveLength(2);

    worker.wake();
    await passes(0);
    expect(polls).toHaveLength(3);

    const release = hold();
    worker.wake();
    await passes(0);
    expect(polls).toHaveLength(4);
    // Two wakes while that tick runs make one more tick, right after it; then it is idle again.
    worker.wake();
    worker.wake();
    release();
    await passes(0);
    expect(polls).toHaveLength(5);
    await passes(TICKS.idleMs - 1);
    expect(polls).toHaveLength(5);
  } finally {
    await worker.stop();
  }
});

test('a tick that found work is followed after the busy interval, not the idle one', async () => {
  const event = { id: 'evt_1', account_id: 1, type: 'video.job.done', subject: { kind: 'job', id: 1 }, order_key: 'job-1', created_at: new Date().toISOString() } as WebhookEvent;
  const { polls, deps } = idleStore([event, { ...event, id: 'evt_2' }]);
  const started = Date.now();
  const worker = localWebhookWorker(() => deps, () => undefined, TICKS);
  worker.start();
  try {
    // Two ticks fan out an event each; the third finds nothing and the worker goes idle.
    await passes(TICKS.idleMs - 1);
    expect(polls.map((at) => at - started)).toEqual([10, 20, 30]);
  } finally {
    await worker.stop();
  }
});

test('a stopped worker ignores wakes', async () => {
  const { polls, deps } = idleStore();
  const worker = localWebhookWorker(() => deps, () => undefined, TICKS);
  worker.wake();
  expect(jest.getTimerCount()).toBe(0);
  await passes(TICKS.idleMs);
  expect(polls).toHaveLength(0);
});
