/**
 * Sends deliveries: the schedule's due ones, each claimed for one attempt (a lease, so a worker that
 * dies mid-attempt leaves it to be retried), and a manual retry's one attempt (webhook-deliveries.ts).
 * Each attempt is signed by the Standard Webhooks scheme with its endpoint's secrets, sent, and
 * recorded over the delivery as it then is, so an attempt recorded meanwhile is never lost. The
 * endpoint's health moves with it: a success clears its failure streak; a 410, or 3 days of
 * failures, disables it.
 */
import pLimit from 'p-limit';
import { Webhook } from 'standardwebhooks';
import { giveUp, settleAttempt, type AttemptOutcome, type DeliveryChange } from '#domain/webhook-attempts';
import { signingSecrets } from '#domain/webhook-secrets';
import { PING_EVENT, WEBHOOK_LIMITS, type AttemptTrigger, type WebhookDelivery, type WebhookEndpoint } from '#domain/webhooks';
import type { Ports } from '#ports/ports';
import type { DeliveryRef } from '#ports/webhook-store';
import type { Metrics } from '#ports/metrics';
import { metricsOf } from './metrics-of';

export type DeliverDeps = Pick<Ports, 'webhooks' | 'webhookReceivers' | 'now'> & { metrics?: Metrics };

/** Longer than an attempt's timeout, so a live attempt is never taken twice. */
const LEASE_MS = WEBHOOK_LIMITS.timeoutMs * 3;
/** Attempts in flight at once: receivers are slow at worst for the timeout, and one slow receiver must not hold up the rest. */
const PARALLEL_ATTEMPTS = 16;
/** Reads and writes of one outcome before giving up: each retry means another attempt was recorded in between. */
const RECORD_TRIES = 5;

/** Attempts up to `limit` due deliveries; how many were attempted. */
export async function deliverDueWebhooks(deps: DeliverDeps, limit = 50): Promise<number> {
  const due = await deps.webhooks.dueDeliveries(deps.now(), limit);
  const parallel = pLimit(PARALLEL_ATTEMPTS);
  const attempted = await Promise.all(due.map((ref) => parallel(() => deliverWebhook(deps, ref))));
  return attempted.filter(Boolean).length;
}

/** One automatic attempt of one delivery, if it is still due; false when another worker has it or it is not due. */
export async function deliverWebhook(deps: DeliverDeps, ref: DeliveryRef): Promise<boolean> {
  const now = deps.now();
  const claimed = await deps.webhooks.claim(ref, now, new Date(now.getTime() + LEASE_MS));
  if (!claimed) return false;
  const endpoint = await deps.webhooks.getEndpoint(ref.accountId, ref.endpointId);
  if (!endpoint || (!endpoint.enabled && claimed.type !== PING_EVENT)) {
    const reason = endpoint ? 'The endpoint is disabled' : 'The endpoint was deleted';
    const written = await record(deps, claimed, (current) => (holdsLease(current, claimed) && current.status === 'pending' ? giveUp(current, reason) : undefined));
    if (written) countOutcome(deps, written.before, written.after);
    return true;
  }
  await attemptDelivery(deps, endpoint, claimed, 'automatic');
  return true;
}

/**
 * Sends `delivery` to `endpoint` once and records the outcome: the delivery as it then is, or
 * undefined when an automatic attempt's lease was taken over meanwhile (the new holder records).
 */
export async function attemptDelivery(deps: DeliverDeps, endpoint: WebhookEndpoint, delivery: WebhookDelivery, trigger: AttemptTrigger): Promise<WebhookDelivery | undefined> {
  const sentAt = deps.now();
  const result = await deps.webhookReceivers.send({ url: endpoint.url, headers: signatureHeaders(endpoint, delivery, sentAt), body: delivery.payload }, WEBHOOK_LIMITS.timeoutMs);
  const settledAt = deps.now();
  let outcome: AttemptOutcome | undefined;
  const written = await record(deps, delivery, (current) => {
    if (trigger === 'automatic' && !holdsLease(current, delivery)) return undefined;
    outcome = settleAttempt(current, endpoint, { trigger, sentAt, result }, settledAt);
    return outcome.delivery;
  }, settledAt);
  if (!written || !outcome) return undefined;
  countOutcome(deps, written.before, written.after);
  await updateEndpointHealth(deps, endpoint, outcome, settledAt);
  return written.after;
}

/** Only the worker holding an automatic attempt's lease records it: one that outlived its lease was taken over. */
const holdsLease = (current: WebhookDelivery, claimed: WebhookDelivery) => current.claimed_until === claimed.claimed_until;

/** Every signature in one header, the current secret's first: a receiver holding either secret verifies it. */
function signatureHeaders(endpoint: WebhookEndpoint, delivery: WebhookDelivery, at: Date): Record<string, string> {
  const signature = signingSecrets(endpoint, at)
    .map((secret) => new Webhook(secret).sign(delivery.event_id, at, delivery.payload))
    .join(' ');
  return { 'webhook-id': delivery.event_id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

/**
 * Writes the change computed from the delivery as last read, reading it again while another write
 * came first; undefined when there is nothing to write (or the delivery is gone).
 */
async function record(
  deps: DeliverDeps,
  read: WebhookDelivery,
  change: (current: WebhookDelivery) => DeliveryChange | undefined,
  // The settled time, so updated_at and a next attempt computed from it share one clock reading.
  at?: Date,
): Promise<{ before: WebhookDelivery; after: WebhookDelivery } | undefined> {
  let current: WebhookDelivery | undefined = read;
  for (let tries = 0; current && tries < RECORD_TRIES; tries++) {
    const next = change(current);
    if (!next) return undefined;
    if (await deps.webhooks.recordAttempt(current, next, at ?? deps.now())) return { before: current, after: { ...current, ...next, revision: current.revision + 1 } };
    current = await deps.webhooks.getDelivery(read.account_id, read.endpoint_id, read.id);
  }
  if (current) throw new Error(`webhook delivery ${read.id} was written ${RECORD_TRIES} times while its attempt was being recorded`);
  return undefined;
}

/** Deliveries that got through, and those that failed for good, as they become so. */
function countOutcome(deps: DeliverDeps, before: WebhookDelivery, after: WebhookDelivery): void {
  if (after.status === before.status) return;
  if (after.status === 'succeeded') metricsOf(deps).record({ name: 'WebhooksDelivered' });
  if (after.status === 'failed') metricsOf(deps).record({ name: 'WebhooksFailed' });
}

async function updateEndpointHealth(deps: DeliverDeps, endpoint: WebhookEndpoint, outcome: AttemptOutcome, now: Date): Promise<void> {
  const { failing_since, disable } = outcome.endpoint;
  if (!disable && failing_since === endpoint.failing_since) return;
  await deps.webhooks.updateEndpoint(endpoint.account_id, endpoint.id, disable ? { failing_since, enabled: false, disabled_reason: disable } : { failing_since }, now);
}
