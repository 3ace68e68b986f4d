/**
 * The webhook store in memory, with the DynamoDB store's conditions: the endpoint cap, a rotation
 * made over the secret it replaces, an event fanned out once (its body kept), a claim only of a due
 * delivery, a delivery written only over the revision it was read at, lanes whose oldest pending
 * delivery alone is due, and sent events listed up to the first one still in the outbox.
 */
import type { DeliveryChange } from '#domain/webhook-attempts';
import type { SentEvent, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#domain/webhooks';
import type { DeliveryPage, DeliveryRef, EndpointChanges, WebhookStore } from '#ports/webhook-store';

interface StoredEvent {
  event: WebhookEvent;
  payload?: string;
}

export class MemoryWebhookStore implements WebhookStore {
  readonly endpoints = new Map<string, WebhookEndpoint>();
  readonly events = new Map<string, StoredEvent>();
  readonly deliveries = new Map<string, WebhookDelivery>();

  async createEndpoint(endpoint: WebhookEndpoint, cap: { limit: number; refusal: () => Error }): Promise<void> {
    if ((await this.listEndpoints(endpoint.account_id)).length >= cap.limit) throw cap.refusal();
    this.endpoints.set(endpoint.id, structuredClone(endpoint));
  }

  async listEndpoints(accountId: number): Promise<WebhookEndpoint[]> {
    return [...this.endpoints.values()].filter((e) => e.account_id === accountId).map((e) => structuredClone(e));
  }

  async getEndpoint(accountId: number, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = this.endpoints.get(endpointId);
    return endpoint?.account_id === accountId ? structuredClone(endpoint) : undefined;
  }

  async updateEndpoint(accountId: number, endpointId: string, changes: EndpointChanges, now: Date, ifSecret?: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = this.endpoints.get(endpointId);
    if (endpoint?.account_id !== accountId || (ifSecret !== undefined && endpoint.secret !== ifSecret)) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    Object.assign(endpoint, structuredClone(defined), { updated_at: now.toISOString() });
    return structuredClone(endpoint);
  }

  async deleteEndpoint(accountId: number, endpointId: string): Promise<boolean> {
    if (this.endpoints.get(endpointId)?.account_id !== accountId) return false;
    return this.endpoints.delete(endpointId);
  }

  async putEvent(event: WebhookEvent): Promise<void> {
    if (this.events.has(event.id)) throw new Error(`event ${event.id} exists already`);
    this.events.set(event.id, { event: structuredClone(event) });
  }

  async pendingEvents(limit: number): Promise<WebhookEvent[]> {
    return this.byId()
      .filter((stored) => stored.payload === undefined)
      .slice(0, limit)
      .map((stored) => structuredClone(stored.event));
  }

  async fanOut(event: WebhookEvent, payload: string, deliveries: WebhookDelivery[], now: Date): Promise<boolean> {
    const stored = this.events.get(event.id);
    if (!stored || stored.payload !== undefined) return false;
    stored.payload = payload;
    for (const delivery of deliveries) {
      const waiting = this.laneHead(delivery.account_id, delivery.endpoint_id, delivery.order_key);
      this.deliveries.set(delivery.id, { ...structuredClone(delivery), next_attempt_at: waiting ? null : now.toISOString() });
    }
    return true;
  }

  async sentEvents(accountId: number, query: { after?: string; limit: number }): Promise<SentEvent[]> {
    const mine = this.byId().filter((stored) => stored.event.account_id === accountId && !stored.event.endpoint_id);
    const asSent = (stored: StoredEvent) => ({ id: stored.event.id, payload: stored.payload! });
    if (query.after === undefined) return mine.filter((stored) => stored.payload !== undefined).slice(-query.limit).map(asSent);
    const later = mine.filter((stored) => stored.event.id > query.after!);
    const waiting = later.findIndex((stored) => stored.payload === undefined);
    return (waiting === -1 ? later : later.slice(0, waiting)).slice(0, query.limit).map(asSent);
  }

  async dueDeliveries(now: Date, limit: number): Promise<DeliveryRef[]> {
    return [...this.deliveries.values()]
      .filter((d) => d.status === 'pending' && d.next_attempt_at !== null && d.next_attempt_at <= now.toISOString())
      .sort((a, b) => a.next_attempt_at!.localeCompare(b.next_attempt_at!))
      .slice(0, limit)
      .map((d) => ({ accountId: d.account_id, endpointId: d.endpoint_id, deliveryId: d.id }));
  }

  async getDelivery(accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const delivery = this.deliveries.get(deliveryId);
    return delivery?.account_id === accountId && delivery.endpoint_id === endpointId ? structuredClone(delivery) : undefined;
  }

  async listDeliveries(accountId: number, endpointId: string, page: number, perPage: number): Promise<DeliveryPage> {
    const all = [...this.deliveries.values()].filter((d) => d.account_id === accountId && d.endpoint_id === endpointId).sort((a, b) => b.id.localeCompare(a.id));
    return { items: all.slice((page - 1) * perPage, page * perPage).map((d) => structuredClone(d)), total: all.length };
  }

  async claim(ref: DeliveryRef, now: Date, leaseUntil: Date): Promise<WebhookDelivery | undefined> {
    const delivery = this.deliveries.get(ref.deliveryId);
    if (!delivery || delivery.status !== 'pending' || delivery.next_attempt_at === null || delivery.next_attempt_at > now.toISOString()) return undefined;
    const lease = leaseUntil.toISOString();
    Object.assign(delivery, { next_attempt_at: lease, claimed_until: lease, revision: delivery.revision + 1 });
    return structuredClone(delivery);
  }

  async recordAttempt(read: WebhookDelivery, change: DeliveryChange, now: Date): Promise<boolean> {
    const delivery = this.deliveries.get(read.id);
    if (!delivery || delivery.revision !== read.revision) return false;
    Object.assign(delivery, structuredClone(change), { updated_at: now.toISOString(), revision: read.revision + 1 });
    if (read.status === 'pending' && change.status !== 'pending') this.startNextInLane(delivery, now);
    return true;
  }

  /** The outbox and the sent events, in id order (ids begin with their time). */
  private byId(): StoredEvent[] {
    return [...this.events.values()].sort((a, b) => a.event.id.localeCompare(b.event.id));
  }

  private lane(accountId: number, endpointId: string, orderKey: string): WebhookDelivery[] {
    return [...this.deliveries.values()]
      .filter((d) => d.account_id === accountId && d.endpoint_id === endpointId && d.order_key === orderKey && d.status === 'pending')
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  private laneHead(accountId: number, endpointId: string, orderKey: string): WebhookDelivery | undefined {
    return this.lane(accountId, endpointId, orderKey)[0];
  }

  private startNextInLane(settled: WebhookDelivery, now: Date): void {
    const next = this.laneHead(settled.account_id, settled.endpoint_id, settled.order_key);
    if (next && next.next_attempt_at === null) Object.assign(next, { next_attempt_at: now.toISOString(), revision: next.revision + 1 });
  }
}
