/**
 * The delivery function's SQS handler: each message is one delivery attempted; a message that can
 * never be one is dropped; an error of our own hands just that message back to the queue.
 */
import type { SQSEvent } from 'aws-lambda';
import { createHandler } from '#handlers/webhook-deliver';
import { testDependencies } from '#test-support/wiring';
import type { DeliveryRef, WebhookStore } from '#ports/webhook-store';

const message = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];
const ref = (deliveryId: string): DeliveryRef => ({ accountId: 1, endpointId: 'wh_1', deliveryId });

test('attempts each delivery, drops malformed messages and returns only those that hit our own error', async () => {
  const claimed: string[] = [];
  const webhooks = {
    claim: async (r: DeliveryRef) => {
      claimed.push(r.deliveryId);
      if (r.deliveryId === 'whd_broken') throw new Error('table unreachable');
      return undefined;
    },
  } as unknown as WebhookStore;
  const handler = createHandler(() => testDependencies({ webhooks, now: () => new Date() }));
  const answer = await handler({
    Records: [message('m1', JSON.stringify(ref('whd_ok'))), message('m2', 'not json'), message('m3', '{"accountId":"1"}'), message('m4', JSON.stringify(ref('whd_broken')))],
  });
  expect(claimed.sort()).toEqual(['whd_broken', 'whd_ok']);
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm4' }] });
});
