/** An endpoint's delivery log, a manual retry, and the test ping. */
import { AppError, notFound } from '#domain/errors';
import { PING_EVENT, type WebhookDelivery } from '#domain/webhooks';
import type { Ports } from '#ports/ports';
import type { DeliveryPage } from '#ports/webhook-store';
import { attemptDelivery, type DeliverDeps } from './deliver-webhooks';
import { getWebhook } from './webhook-endpoints';
import { raiseEvent } from './webhook-events';

type DeliveryDeps = Pick<Ports, 'webhooks' | 'now'>;

export async function listDeliveries(deps: DeliveryDeps, accountId: number, endpointId: string, page: { page: number; perPage: number }): Promise<DeliveryPage> {
  await getWebhook(deps, accountId, endpointId);
  return deps.webhooks.listDeliveries(accountId, endpointId, page.page, page.perPage);
}

/**
 * Sends a delivery once, now, whatever it became, and answers it with the attempt in its log. The
 * retry schedule is left alone: a pending delivery's next automatic attempt keeps its time and
 * number. A success settles it (a pending one's lane moves on); a failure leaves it as it was.
 */
export async function retryDelivery(deps: DeliverDeps, accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const endpoint = await getWebhook(deps, accountId, endpointId);
  const delivery = await deps.webhooks.getDelivery(accountId, endpointId, deliveryId);
  if (!delivery) throw notFound('Delivery');
  if (!endpoint.enabled && delivery.type !== PING_EVENT) {
    throw new AppError('conflict', 'The endpoint is disabled: turn it back on with PATCH {"enabled": true}, then retry');
  }
  const sent = await attemptDelivery(deps, endpoint, delivery, 'manual');
  return sent ?? delivery;
}

/** A `ping` for this endpoint only (enabled or not), its data the endpoint as GET answers it. */
export async function sendTestEvent(deps: DeliveryDeps, accountId: number, endpointId: string): Promise<{ event_id: string }> {
  await getWebhook(deps, accountId, endpointId);
  const event = { ...raiseEvent(PING_EVENT, accountId, { kind: 'endpoint', id: endpointId }, deps.now()), endpoint_id: endpointId };
  await deps.webhooks.putEvent(event);
  return { event_id: event.id };
}
