/**
 * Webhook endpoints, the outbox of events waiting to be fanned out, and deliveries. A delivery is
 * written only over the revision it was read at, so two writers (a worker's attempt and a manual
 * retry, or a message delivered twice) cannot lose each other's attempt. Deliveries of one order key
 * to one endpoint form a lane: only its oldest pending delivery is ever due.
 */
import type { DeliveryChange } from '#domain/webhook-attempts';
import type { SentEvent, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#domain/webhooks';

export type EndpointChanges = Partial<
  Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled' | 'failing_since' | 'disabled_reason' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>
>;

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
  /**
   * The updated endpoint, or undefined when there is none, or (given `ifSecret`) when its secret is no
   * longer that one: a rotation is made over the secret it replaces.
   */
  updateEndpoint(accountId: number, endpointId: string, changes: EndpointChanges, now: Date, ifSecret?: string): Promise<WebhookEndpoint | undefined>;
  /** False when there was none. Its deliveries stay readable until they expire; pending ones fail. */
  deleteEndpoint(accountId: number, endpointId: string): Promise<boolean>;

  /** An event not written with a state change (a ping). */
  putEvent(event: WebhookEvent): Promise<void>;
  /** Events not yet fanned out, oldest first. */
  pendingEvents(limit: number): Promise<WebhookEvent[]>;
  /**
   * Writes the event's deliveries and takes it out of the outbox, keeping the body they send with it,
   * together; a delivery whose lane is empty is due at once, the others wait their turn. False when
   * the event was fanned out already.
   */
  fanOut(event: WebhookEvent, payload: string, deliveries: WebhookDelivery[], now: Date): Promise<boolean>;
  /**
   * The account's events fanned out for every endpoint (no pings), oldest first: the newest `limit`,
   * or with `after` those raised after that one, stopping before an event still waiting in the
   * outbox, so following the list with `after` never steps over one.
   */
  sentEvents(accountId: number, query: { after?: string; limit: number }): Promise<SentEvent[]>;

  /** Deliveries due at `now`, oldest due first. */
  dueDeliveries(now: Date, limit: number): Promise<DeliveryRef[]>;
  getDelivery(accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** One page of an endpoint's deliveries, newest first. */
  listDeliveries(accountId: number, endpointId: string, page: number, perPage: number): Promise<DeliveryPage>;
  /**
   * Takes a due delivery for one automatic attempt (`claimed_until` is the lease): it is not due again
   * before `leaseUntil` (a worker that dies mid-attempt leaves it to be retried then). Undefined when
   * it is not due, or another worker took it.
   */
  claim(ref: DeliveryRef, now: Date, leaseUntil: Date): Promise<WebhookDelivery | undefined>;
  /**
   * Writes `change` over the delivery if it is still at the revision `read` holds; due again at its
   * `next_attempt_at` while pending, and a delivery that stops being pending leaves its lane (the
   * next one in the lane becomes due). False when it was written since: read it again.
   */
  recordAttempt(read: WebhookDelivery, change: DeliveryChange, now: Date): Promise<boolean>;
}
