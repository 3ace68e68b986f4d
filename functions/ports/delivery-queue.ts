/** Where due webhook deliveries wait for a delivery worker (an SQS queue on AWS). */
import type { DeliveryRef } from './webhook-store';

export interface DeliveryQueue {
  enqueue(refs: readonly DeliveryRef[]): Promise<void>;
}
