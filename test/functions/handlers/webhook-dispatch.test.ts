/**
 * The dispatcher: whatever woke it (a stream batch or the schedule), it fans out the outbox's events and
 * queues every delivery that is due, so a run that failed before it loses nothing the next one finds.
 */
import { createHandler } from '#handlers/webhook-dispatch';
import { testDependencies } from '#test-support/wiring';
import type { DeliveryRef, WebhookStore } from '#ports/webhook-store';

test('fans out pending events, then queues the due deliveries', async () => {
  const due: DeliveryRef[] = [
    { accountId: 1, endpointId: 'wh_1', deliveryId: 'whd_1' },
    { accountId: 2, endpointId: 'wh_2', deliveryId: 'whd_2' },
  ];
  const calls: string[] = [];
  const webhooks = {
    pendingEvents: async () => {
      calls.push('pendingEvents');
      return [];
    },
    dueDeliveries: async () => {
      calls.push('dueDeliveries');
      return due;
    },
  } as unknown as WebhookStore;
  const queued: DeliveryRef[] = [];
  const handler = createHandler(
    () => testDependencies({ webhooks, now: () => new Date() }),
    () => ({ enqueue: async (refs) => void queued.push(...refs) }),
  );
  expect(await handler({ Records: [] })).toEqual({ dispatched: 0, queued: 2 });
  expect(calls).toEqual(['pendingEvents', 'dueDeliveries']);
  expect(queued).toEqual(due);
});
