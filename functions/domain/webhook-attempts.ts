/**
 * What an attempt does to a delivery and its endpoint: the retry schedule, the log of attempts, and
 * how a manual retry differs from the schedule's own attempts (it sends once, now, and moves nothing
 * of the schedule: the next automatic attempt keeps its time and its number).
 */
import { WEBHOOK_LIMITS, type AttemptResult, type AttemptTrigger, type DeliveryAttempt, type WebhookDelivery, type WebhookEndpoint } from './webhooks';

/** Seconds before each retry: the first attempt, then these 7 (about 28 hours in all). */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/**
 * The most attempts a delivery's log keeps. The schedule makes at most 8, so every automatic attempt
 * stays; past the bound the oldest manual ones go (the counts keep every attempt).
 */
export const ATTEMPT_LOG_LIMIT = 20;

/** What an attempt (or giving up) changes on a delivery. */
export type DeliveryChange = Pick<
  WebhookDelivery,
  'attempt' | 'automatic_attempts' | 'manual_attempts' | 'attempts' | 'status' | 'response_status' | 'latency_ms' | 'last_error' | 'next_attempt_at' | 'claimed_until'
>;

/** What a delivery becomes after an attempt, and what happens to its endpoint. */
export interface AttemptOutcome {
  delivery: DeliveryChange;
  endpoint: { failing_since: string | null; disable?: string };
}

/** One attempt made: by whom, when it was sent, and what it met. */
export interface MadeAttempt {
  trigger: AttemptTrigger;
  sentAt: Date;
  result: AttemptResult;
}

const isSuccess = (result: AttemptResult) => result.kind === 'answered' && result.status >= 200 && result.status < 300;

/**
 * Settles one attempt against the delivery as it is now (another attempt may have been recorded
 * since this one was sent). A 2xx succeeds the delivery, whatever it was. A failure moves a pending
 * delivery on: 410 Gone fails it and disables the endpoint at once; otherwise an automatic attempt
 * takes the schedule's next delay (failed once the attempts run out), while a manual one leaves the
 * next automatic attempt where it was. A settled delivery stays as it was on a failure. An endpoint
 * failing for 3 days without a success is disabled.
 */
export function settleAttempt(
  delivery: Omit<DeliveryChange, 'response_status' | 'latency_ms' | 'last_error'>,
  endpoint: Pick<WebhookEndpoint, 'failing_since'>,
  made: MadeAttempt,
  now: Date,
): AttemptOutcome {
  const { trigger, result } = made;
  const automatic = trigger === 'automatic';
  const counts = {
    attempt: delivery.attempt + 1,
    automatic_attempts: delivery.automatic_attempts + (automatic ? 1 : 0),
    manual_attempts: delivery.manual_attempts + (automatic ? 0 : 1),
  };
  const succeeded = isSuccess(result);
  const message = describeResult(result);
  const entry: DeliveryAttempt = {
    number: automatic ? counts.automatic_attempts : counts.manual_attempts,
    trigger,
    at: made.sentAt.toISOString(),
    outcome: succeeded ? 'succeeded' : 'failed',
    message,
    response_status: result.kind === 'answered' ? result.status : null,
    duration_ms: Math.round(result.latencyMs),
  };
  const common = {
    ...counts,
    attempts: logAttempt(delivery.attempts, entry),
    response_status: entry.response_status,
    latency_ms: entry.duration_ms,
    // The automatic attempt's lease ends with it; a manual one leaves a lease in flight alone.
    claimed_until: automatic ? null : delivery.claimed_until,
  };
  if (succeeded) {
    return { delivery: { ...common, status: 'succeeded', last_error: null, next_attempt_at: null }, endpoint: { failing_since: null } };
  }
  const failingSince = endpoint.failing_since ?? now.toISOString();
  const gone = result.kind === 'answered' && result.status === 410;
  const failingTooLong = now.getTime() - Date.parse(failingSince) >= WEBHOOK_LIMITS.disableAfterMs;
  const disable = gone ? 'The endpoint answered 410 Gone' : failingTooLong ? 'Deliveries failed for 3 days without a success' : undefined;
  const failure = { ...common, last_error: message };
  const endpointChange = { failing_since: failingSince, ...(disable ? { disable } : {}) };
  if (delivery.status !== 'pending') return { delivery: { ...failure, status: delivery.status, next_attempt_at: null }, endpoint: endpointChange };
  const delay = RETRY_DELAYS_S[counts.automatic_attempts - 1];
  if (disable || (automatic && delay === undefined)) return { delivery: { ...failure, status: 'failed', next_attempt_at: null }, endpoint: endpointChange };
  const next = automatic ? new Date(now.getTime() + delay! * 1000).toISOString() : delivery.next_attempt_at;
  return { delivery: { ...failure, status: 'pending', next_attempt_at: next }, endpoint: endpointChange };
}

/** A pending delivery that can no longer be sent (its endpoint disabled or deleted) fails, with no attempt made. */
export function giveUp(delivery: Omit<DeliveryChange, 'response_status' | 'latency_ms' | 'last_error'>, reason: string): DeliveryChange {
  return { ...delivery, status: 'failed', response_status: null, latency_ms: null, last_error: reason, next_attempt_at: null, claimed_until: null };
}

/** The log with `entry` added, bounded: past the limit the oldest manual attempts go first. */
export function logAttempt(attempts: readonly DeliveryAttempt[], entry: DeliveryAttempt): DeliveryAttempt[] {
  const log = [...attempts, entry];
  while (log.length > ATTEMPT_LOG_LIMIT) {
    const oldestManual = log.findIndex((attempt) => attempt.trigger === 'manual');
    log.splice(oldestManual === -1 ? 0 : oldestManual, 1);
  }
  return log;
}

function describeResult(result: AttemptResult): string {
  if (result.kind !== 'answered') return result.message;
  if (result.status >= 300 && result.status < 400) return `Answered ${result.status}: redirects are not followed; point the endpoint at the final URL`;
  return `Answered ${result.status}`;
}
