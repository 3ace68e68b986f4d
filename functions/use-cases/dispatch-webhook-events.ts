/**
 * Fans the outbox's events out: each becomes one delivery per endpoint that gets it, with the exact
 * body every attempt will send, `data` being the record as its GET answers it at this moment (links
 * freshly signed). An event whose record is gone meanwhile carries `{id, deleted: true}`. The body is
 * kept with the event too, endpoints or not: GET /webhooks/events lists it (`webhooks listen`).
 */
import { randomBytes } from 'node:crypto';
import { eventPayload, recipientsOf, type WebhookDelivery, type WebhookEvent } from '#domain/webhooks';
import { endpointView } from '#domain/webhooks';
import { postView } from '#domain/social-post';
import type { Ports } from '#ports/ports';
import { presentAvatar, presentJob, presentProduct } from './present-records';

export type DispatchDeps = Pick<Ports, 'webhooks' | 'jobs' | 'products' | 'avatars' | 'posts' | 'blobs' | 'now'>;

/** Fans out up to `limit` pending events, oldest first; how many were fanned out. */
export async function dispatchWebhookEvents(deps: DispatchDeps, limit = 25): Promise<number> {
  const events = await deps.webhooks.pendingEvents(limit);
  let dispatched = 0;
  for (const event of events) if (await dispatchEvent(deps, event)) dispatched++;
  return dispatched;
}

async function dispatchEvent(deps: DispatchDeps, event: WebhookEvent): Promise<boolean> {
  const endpoints = recipientsOf(event, await deps.webhooks.listEndpoints(event.account_id));
  const now = deps.now();
  const payload = eventPayload(event, await dataOf(deps, event));
  const deliveries = endpoints.map(
    (endpoint): WebhookDelivery => ({
      id: newDeliveryId(now),
      account_id: event.account_id,
      endpoint_id: endpoint.id,
      event_id: event.id,
      type: event.type,
      order_key: event.order_key,
      payload,
      attempt: 0,
      automatic_attempts: 0,
      manual_attempts: 0,
      attempts: [],
      status: 'pending',
      response_status: null,
      latency_ms: null,
      last_error: null,
      next_attempt_at: null,
      claimed_until: null,
      revision: 0,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    }),
  );
  return deps.webhooks.fanOut(event, payload, deliveries, now);
}

/** Time first, so an endpoint's deliveries (and a lane's) sort in the order they were made. */
const newDeliveryId = (now: Date) => `whd_${now.getTime().toString(16).padStart(12, '0')}${randomBytes(6).toString('hex')}`;

async function dataOf(deps: DispatchDeps, event: WebhookEvent): Promise<unknown> {
  const { kind, id } = event.subject;
  const gone = { id, deleted: true };
  switch (kind) {
    case 'job': {
      const job = await deps.jobs.get(event.account_id, Number(id));
      return job ? presentJob(deps.blobs, job) : gone;
    }
    case 'product': {
      const product = await deps.products.get(event.account_id, Number(id));
      return product ? presentProduct(deps.blobs, product) : gone;
    }
    case 'avatar': {
      const avatar = await deps.avatars.get(event.account_id, Number(id));
      return avatar ? presentAvatar(deps.blobs, avatar) : gone;
    }
    case 'post': {
      const post = await deps.posts.get(event.account_id, Number(id));
      return post ? postView(post) : gone;
    }
    case 'endpoint': {
      const endpoint = await deps.webhooks.getEndpoint(event.account_id, String(id));
      return endpoint ? endpointView(endpoint) : gone;
    }
  }
}
