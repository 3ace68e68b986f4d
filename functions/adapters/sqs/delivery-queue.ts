/** Due webhook deliveries as SQS messages, ten to a SendMessageBatch call (SQS's most). */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryQueue } from '#ports/delivery-queue';
import type { DeliveryRef } from '#ports/webhook-store';

const BATCH = 10;

export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(refs: readonly DeliveryRef[]): Promise<void> {
    for (let start = 0; start < refs.length; start += BATCH) {
      const batch = refs.slice(start, start + BATCH);
      const out = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((ref, index) => ({ Id: String(index), MessageBody: JSON.stringify(ref) })),
        }),
      );
      // A message that did not go is found again by the next scheduled run: the due index is the truth.
      if (out.Failed?.length) throw new Error(`${out.Failed.length} delivery messages were not queued: ${out.Failed[0]?.Message ?? 'unknown'}`);
    }
  }
}

/** A message as the delivery worker reads it; anything else is refused. */
export function deliveryRefOf(body: string): DeliveryRef | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<DeliveryRef>;
    if (typeof parsed.accountId === 'number' && typeof parsed.endpointId === 'string' && typeof parsed.deliveryId === 'string') {
      return { accountId: parsed.accountId, endpointId: parsed.endpointId, deliveryId: parsed.deliveryId };
    }
  } catch {
    // Not JSON: refused below.
  }
  return undefined;
}
