/**
 * The webhook store on the table, composed of its three aggregates, each in the account's partition:
 * endpoints (webhook-endpoints.ts), the outbox of events (webhook-outbox.ts) and deliveries with their
 * lanes (webhook-deliveries.ts).
 */
import type { DeliveryChange } from '#domain/webhook-attempts';
import type { SentEvent, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#domain/webhooks';
import type { DeliveryPage, DeliveryRef, EndpointChanges, WebhookStore } from '#ports/webhook-store';
import type { DynamoTable } from './table';
import { DynamoWebhookDeliveries } from './webhook-deliveries';
import { DynamoWebhookEndpoints } from './webhook-endpoints';
import { DynamoWebhookOutbox } from './webhook-outbox';

export class DynamoWebhookStore implements WebhookStore {
  private readonly endpoints: DynamoWebhookEndpoints;
  private readonly outbox: DynamoWebhookOutbox;
  private readonly deliveries: DynamoWebhookDeliveries;

  constructor(table: DynamoTable) {
    this.endpoints = new DynamoWebhookEndpoints(table);
    this.outbox = new DynamoWebhookOutbox(table);
    this.deliveries = new DynamoWebhookDeliveries(table);
  }

  createEndpoint(endpoint: WebhookEndpoint, cap: { limit: number; refusal: () => Error }): Promise<void> {
    return this.endpoints.createEndpoint(endpoint, cap);
  }

  listEndpoints(accountId: number): Promise<WebhookEndpoint[]> {
    return this.endpoints.listEndpoints(accountId);
  }

  getEndpoint(accountId: number, endpointId: string): Promise<WebhookEndpoint | undefined> {
    return this.endpoints.getEndpoint(accountId, endpointId);
  }

  updateEndpoint(accountId: number, endpointId: string, changes: EndpointChanges, now: Date, ifSecret?: string): Promise<WebhookEndpoint | undefined> {
    return this.endpoints.updateEndpoint(accountId, endpointId, changes, now, ifSecret);
  }

  deleteEndpoint(accountId: number, endpointId: string): Promise<boolean> {
    return this.endpoints.deleteEndpoint(accountId, endpointId);
  }

  putEvent(event: WebhookEvent): Promise<void> {
    return this.outbox.putEvent(event);
  }

  pendingEvents(limit: number): Promise<WebhookEvent[]> {
    return this.outbox.pendingEvents(limit);
  }

  fanOut(event: WebhookEvent, payload: string, deliveries: WebhookDelivery[], now: Date): Promise<boolean> {
    return this.deliveries.fanOut(event, payload, deliveries, now);
  }

  sentEvents(accountId: number, query: { after?: string; limit: number }): Promise<SentEvent[]> {
    return this.outbox.sentEvents(accountId, query);
  }

  dueDeliveries(now: Date, limit: number): Promise<DeliveryRef[]> {
    return this.deliveries.dueDeliveries(now, limit);
  }

  getDelivery(accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    return this.deliveries.getDelivery(accountId, endpointId, deliveryId);
  }

  listDeliveries(accountId: number, endpointId: string, page: number, perPage: number): Promise<DeliveryPage> {
    return this.deliveries.listDeliveries(accountId, endpointId, page, perPage);
  }

  claim(ref: DeliveryRef, now: Date, leaseUntil: Date): Promise<WebhookDelivery | undefined> {
    return this.deliveries.claim(ref, now, leaseUntil);
  }

  recordAttempt(read: WebhookDelivery, change: DeliveryChange, now: Date): Promise<boolean> {
    return this.deliveries.recordAttempt(read, change, now);
  }
}
