import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliverWebhook } from '#use-cases/deliver-webhooks';
import type { NeedsOf, PortSource } from '#ports/ports';
import { deliveryRefOf } from '#adapters/sqs/delivery-queue';
import { HttpWebhookReceivers } from '#adapters/webhooks/http-receivers';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { withLambdaContext } from '#functions/logger';

/**
 * Attempts the deliveries the dispatcher queued (lib/cloud/webhooks.ts), all of a batch at once. A
 * receiver's answer, good or bad, is an outcome recorded on the delivery, not a failure here; only an
 * error of our own (the table unreachable) returns the message to the queue, and after five tries to
 * its dead-letter queue, which an alarm watches.
 */
export const createHandler = (ports: PortSource<NeedsOf<typeof deliverWebhook>>) => async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = ports();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      const ref = deliveryRefOf(record.body);
      // A malformed message can never succeed: dropped rather than retried into the dead-letter queue.
      if (!ref) return;
      try {
        await deliverWebhook(deps, ref);
      } catch {
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()), webhookReceivers: new HttpWebhookReceivers({ allowLoopback: false }) }))));
