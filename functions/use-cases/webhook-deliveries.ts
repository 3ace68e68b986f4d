/** An endpoint's delivery log, a manual retry, and the test ping. */
import { notFound } from '#domain/errors';
import { PING_EVENT, type WebhookDelivery } from '#domain/webhooks';
import type { Dependencies } from '#ports/dependencies';
import type { DeliveryPage } from '#ports/webhook-store';
import { getWebhook } from './webhook-endpoints';
import { raiseEvent } from './webhook-events';

type DeliveryDeps = Pick<Dependencies, 'webhooks' | 'now'>;

export async function listDeliveries(deps: DeliveryDeps, accountId: number, endpointId: string, page: { page: number; perPage: number }): Promise<DeliveryPage> {
  await getWebhook(deps, accountId, endpointId);
  return deps.webhooks.listDeliveries(accountId, endpointId, page.page, page.perPage);
}

/** Sends a delivery again at once, whatever it became; its attempts keep counting. */
export async function retryDelivery(deps: DeliveryDeps, accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  await getWebhook(deps, accountId, endpointId);
  const queued = await deps.webhooks.requeue(accountId, endpointId, deliveryId, deps.now());
  if (!queued) throw notFound('Delivery');
  return queued;
}

/** A `ping` for this endpoint only (enabled or not), its data the endpoint as GET answers it. */
export async function sendTestEvent(deps: DeliveryDeps, accountId: number, endpointId: string): Promise<{ event_id: string }> {
  await getWebhook(deps, accountId, endpointId);
  const event = { ...raiseEvent(PING_EVENT, accountId, { kind: 'endpoint', id: endpointId }, deps.now()), endpoint_id: endpointId };
  await deps.webhooks.putEvent(event);
  return { event_id: event.id };
}
