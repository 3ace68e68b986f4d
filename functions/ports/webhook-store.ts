/**
 * Webhook endpoints, the outbox of events waiting to be fanned out, and deliveries. Every change of a
 * delivery is conditional on the attempt it follows, so two workers (a timer tick and a retry, or a
 * message delivered twice) cannot both record one attempt. Deliveries of one order key to one
 * endpoint form a lane: only its oldest pending delivery is ever due.
 */
import type { AttemptOutcome, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#domain/webhooks';

export type EndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled' | 'failing_since' | 'disabled_reason'>>;

/** A delivery as the due index finds it. */
export interface DeliveryRef {
  accountId: number;
  endpointId: string;
  deliveryId: string;
}

export interface DeliveryPage {
  items: WebhookDelivery[];
  total: number;
}

export interface WebhookStore {
  /** Writes a new endpoint; a full account (`limit` endpoints) throws `refusal()` and writes nothing. */
  createEndpoint(endpoint: WebhookEndpoint, cap: { limit: number; refusal: () => Error }): Promise<void>;
  listEndpoints(accountId: number): Promise<WebhookEndpoint[]>;
  getEndpoint(accountId: number, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /** The updated endpoint, or undefined when there is none. */
  updateEndpoint(accountId: number, endpointId: string, changes: EndpointChanges, now: Date): Promise<WebhookEndpoint | undefined>;
  /** False when there was none. Its deliveries stay readable until they expire; pending ones fail. */
  deleteEndpoint(accountId: number, endpointId: string): Promise<boolean>;

  /** An event not written with a state change (a ping). */
  putEvent(event: WebhookEvent): Promise<void>;
  /** Events not yet fanned out, oldest first. */
  pendingEvents(limit: number): Promise<WebhookEvent[]>;
  /**
   * Writes the event's deliveries and takes it out of the outbox, together; a delivery whose lane is
   * empty is due at once, the others wait their turn. False when the event was fanned out already.
   */
  fanOut(event: WebhookEvent, deliveries: WebhookDelivery[], now: Date): Promise<boolean>;

  /** Deliveries due at `now`, oldest due first. */
  dueDeliveries(now: Date, limit: number): Promise<DeliveryRef[]>;
  getDelivery(accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** One page of an endpoint's deliveries, newest first. */
  listDeliveries(accountId: number, endpointId: string, page: number, perPage: number): Promise<DeliveryPage>;
  /**
   * Takes a due delivery for one attempt: it is not due again before `leaseUntil` (a worker that dies
   * mid-attempt leaves it to be retried then). Undefined when it is not due, or another worker took it.
   */
  claim(ref: DeliveryRef, now: Date, leaseUntil: Date): Promise<WebhookDelivery | undefined>;
  /**
   * Records an attempt's outcome if the delivery is still at that attempt; a settled delivery leaves
   * its lane and the next one in the lane becomes due. False when another worker recorded it first.
   */
  recordAttempt(delivery: WebhookDelivery, outcome: AttemptOutcome['delivery'], now: Date): Promise<boolean>;
  /** Queues a settled or waiting delivery to be sent at once (POST .../retry); undefined when there is none. */
  requeue(accountId: number, endpointId: string, deliveryId: string, now: Date): Promise<WebhookDelivery | undefined>;
}
