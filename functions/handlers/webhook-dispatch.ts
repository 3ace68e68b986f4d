import { SQSClient } from '@aws-sdk/client-sqs';
import { dispatchWebhookEvents } from '#use-cases/dispatch-webhook-events';
import type { NeedsOf, PortSource } from '#ports/ports';
import type { DeliveryQueue } from '#ports/delivery-queue';
import { SqsDeliveryQueue } from '#adapters/sqs/delivery-queue';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts, lambdaSettings } from '#wiring/lambda';
import { withLambdaContext } from '#functions/logger';
import { requiredEnv } from '#functions/config';

/** Deliveries queued per run; a longer backlog is taken by the next run (a minute later at most). */
const QUEUED_PER_RUN = 200;

/**
 * Runs on the table's stream when an event is written (lib/cloud/webhooks.ts), and every minute. The
 * stream's records only wake it: it fans out whatever the outbox holds, then queues every delivery
 * that is due (new ones, retries whose time came, a lane's next), so a failed run loses nothing.
 */
export const createHandler = (ports: PortSource<NeedsOf<typeof dispatchWebhookEvents>>, queue: () => DeliveryQueue) => async (_trigger?: unknown) => {
  const deps = ports();
  const dispatched = await dispatchWebhookEvents(deps, 100);
  const due = await deps.webhooks.dueDeliveries(deps.now(), QUEUED_PER_RUN);
  await queue().enqueue(due);
  return { dispatched, queued: due.length };
};

let sqs: SqsDeliveryQueue | undefined;
// At the first run, named if missing: an empty queue URL would only fail inside the SDK.
const deliveryQueue = () => (sqs ??= new SqsDeliveryQueue(new SQSClient({ region: lambdaSettings().region }), requiredEnv('WEBHOOK_QUEUE_URL')));

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()) })), deliveryQueue));
