/**
 * The local webhook worker's timing: an outbox insert wakes it at once, a tick that found work is
 * followed soon by another, and an idle stack is polled only at the idle interval.
 */
import type { WebhookStore } from '#ports/webhook-store';
import type { WebhookEvent } from '#domain/webhooks';
import { localWebhookWorker } from '#local/webhook-worker';
import { testDependencies } from '#test-support/wiring';
import { eventually } from '#test-support/clock';

/** A webhook store that counts the worker's polls (one per tick) and has `events` to fan out, one per tick. */
function idleStore(events: WebhookEvent[] = []) {
  const polls: number[] = [];
  const webhooks = {
    pendingEvents: async () => {
      polls.push(Date.now());
      return events.splice(0, 1);
    },
    listEndpoints: async () => [],
    fanOut: async () => true,
    dueDeliveries: async () => [],
  } as unknown as WebhookStore;
  return { polls, deps: testDependencies({ webhooks, now: () => new Date() }) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('idle, it polls at the idle interval; a wake ticks at once, and during a tick, right after it', async () => {
  const { polls, deps } = idleStore();
  const worker = localWebhookWorker(() => deps, () => undefined, { busyMs: 10, idleMs: 60_000 });
  worker.start();
  try {
    await eventually(() => polls.length === 1);
    await sleep(100);
    expect(polls).toHaveLength(1);
    worker.wake();
    await eventually(() => polls.length === 2);
    worker.wake();
    worker.wake();
    await eventually(() => polls.length >= 3);
    await sleep(100);
    // The two wakes while that tick ran (or before it) make at most one more tick each, then it is idle again.
    expect(polls.length).toBeLessThanOrEqual(4);
  } finally {
    await worker.stop();
  }
});

test('a tick that found work is followed after the busy interval, not the idle one', async () => {
  const event = { id: 'evt_1', account_id: 1, type: 'video.job.done', subject: { kind: 'job', id: 1 }, order_key: 'job-1', created_at: new Date().toISOString() } as WebhookEvent;
  const { polls, deps } = idleStore([event, { ...event, id: 'evt_2' }]);
  const worker = localWebhookWorker(() => deps, () => undefined, { busyMs: 10, idleMs: 60_000 });
  worker.start();
  try {
    // Two ticks fan out an event each; the third finds nothing and the worker goes idle.
    await eventually(() => polls.length === 3);
    await sleep(100);
    expect(polls).toHaveLength(3);
  } finally {
    await worker.stop();
  }
});

test('a stopped worker ignores wakes', async () => {
  const { polls, deps } = idleStore();
  const worker = localWebhookWorker(() => deps, () => undefined, { busyMs: 10, idleMs: 60_000 });
  worker.wake();
  await sleep(50);
  expect(polls).toHaveLength(0);
});
