/**
 * Sends due deliveries: each is claimed for one attempt (a lease, so a worker that dies mid-attempt
 * leaves it to be retried), signed by the Standard Webhooks scheme with its endpoint's secret, sent,
 * and its outcome recorded against the attempt it made. The endpoint's health moves with it: a success
 * clears its failure streak; a 410, or 3 days of failures, disables it.
 */
import pLimit from 'p-limit';
import { Webhook } from 'standardwebhooks';
import { settleAttempt, WEBHOOK_LIMITS, type AttemptOutcome, type WebhookDelivery, type WebhookEndpoint } from '#domain/webhooks';
import type { Dependencies } from '#ports/dependencies';
import type { DeliveryRef } from '#ports/webhook-store';
import type { Metrics } from '#ports/metrics';
import { metricsOf } from './metrics-of';

export type DeliverDeps = Pick<Dependencies, 'webhooks' | 'webhookReceivers' | 'now'> & { metrics?: Metrics };

/** Longer than an attempt's timeout, so a live attempt is never taken twice. */
const LEASE_MS = WEBHOOK_LIMITS.timeoutMs * 3;
/** Attempts in flight at once: receivers are slow at worst for the timeout, and one slow receiver must not hold up the rest. */
const PARALLEL_ATTEMPTS = 16;

/** Attempts up to `limit` due deliveries; how many were attempted. */
export async function deliverDueWebhooks(deps: DeliverDeps, limit = 50): Promise<number> {
  const due = await deps.webhooks.dueDeliveries(deps.now(), limit);
  const parallel = pLimit(PARALLEL_ATTEMPTS);
  const attempted = await Promise.all(due.map((ref) => parallel(() => deliverWebhook(deps, ref))));
  return attempted.filter(Boolean).length;
}

/** One attempt of one delivery, if it is still due; false when another worker has it or it is not due. */
export async function deliverWebhook(deps: DeliverDeps, ref: DeliveryRef): Promise<boolean> {
  const now = deps.now();
  const delivery = await deps.webhooks.claim(ref, now, new Date(now.getTime() + LEASE_MS));
  if (!delivery) return false;
  const endpoint = await deps.webhooks.getEndpoint(ref.accountId, ref.endpointId);
  if (!endpoint || (!endpoint.enabled && delivery.type !== 'ping')) {
    await giveUp(deps, delivery, endpoint ? 'The endpoint is disabled' : 'The endpoint was deleted');
    return true;
  }
  const result = await deps.webhookReceivers.send({ url: endpoint.url, headers: signatureHeaders(endpoint, delivery, now), body: delivery.payload }, WEBHOOK_LIMITS.timeoutMs);
  const settledAt = deps.now();
  const outcome = settleAttempt(delivery, endpoint, result, settledAt);
  if (!(await deps.webhooks.recordAttempt(delivery, outcome.delivery, settledAt))) return true;
  countOutcome(deps, outcome);
  await updateEndpointHealth(deps, endpoint, outcome, settledAt);
  return true;
}

function signatureHeaders(endpoint: WebhookEndpoint, delivery: WebhookDelivery, now: Date): Record<string, string> {
  const signature = new Webhook(endpoint.secret).sign(delivery.event_id, now, delivery.payload);
  return { 'webhook-id': delivery.event_id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
}

async function giveUp(deps: DeliverDeps, delivery: WebhookDelivery, reason: string): Promise<void> {
  const failed = { attempt: delivery.attempt, status: 'failed', response_status: null, latency_ms: null, last_error: reason, next_attempt_at: null } as const;
  if (await deps.webhooks.recordAttempt(delivery, failed, deps.now())) metricsOf(deps).record({ name: 'WebhooksFailed' });
}

function countOutcome(deps: DeliverDeps, outcome: AttemptOutcome): void {
  if (outcome.delivery.status === 'succeeded') metricsOf(deps).record({ name: 'WebhooksDelivered' });
  if (outcome.delivery.status === 'failed') metricsOf(deps).record({ name: 'WebhooksFailed' });
}

async function updateEndpointHealth(deps: DeliverDeps, endpoint: WebhookEndpoint, outcome: AttemptOutcome, now: Date): Promise<void> {
  const { failing_since, disable } = outcome.endpoint;
  if (!disable && failing_since === endpoint.failing_since) return;
  await deps.webhooks.updateEndpoint(endpoint.account_id, endpoint.id, disable ? { failing_since, enabled: false, disabled_reason: disable } : { failing_since }, now);
}
