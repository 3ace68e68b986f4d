/**
 * Webhooks: the events an account can subscribe to, what an endpoint and a delivery are, and the
 * rules of delivery (retry schedule, when an endpoint is disabled, which URLs may receive events).
 */

/** Every event a state change can raise, and the ping a test sends: the one list. */
export const WEBHOOK_EVENT_TYPES = [
  'video.job.preview_ready',
  'video.job.done',
  'video.job.failed',
  'product.demo.ready',
  'product.demo.failed',
  'avatar.ready',
  'avatar.failed',
  'social.post.published',
  'social.post.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by POST /webhooks/{id}/test, whatever the endpoint subscribes to. */
export const PING_EVENT = 'ping';
export type DeliveredEventType = WebhookEventType | typeof PING_EVENT;

/** The record an event is about; its payload's `data` is that record as its GET answers it. */
export type EventSubjectKind = 'job' | 'product' | 'avatar' | 'post' | 'endpoint';

export const WEBHOOK_LIMITS = {
  endpointsPerAccount: 10,
  /** A 2xx within this long is success; anything else is retried. */
  timeoutMs: 10_000,
  /** An endpoint that has failed without a success in between for this long is disabled. */
  disableAfterMs: 3 * 24 * 3600 * 1000,
  /** How much of a receiver's answer is kept for the delivery log. */
  responseExcerptBytes: 512,
} as const;

/** Seconds before each retry: the first attempt, then these 7 (about 28 hours in all). */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

export interface WebhookEndpoint {
  id: string;
  account_id: number;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** `whsec_<base64>`: shown once, at creation. */
  secret: string;
  /** When deliveries began failing with no success since; null while healthy. */
  failing_since: string | null;
  /** Why the service disabled the endpoint (null when enabled, or disabled by the account). */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** An event written with the state change that raised it, waiting to be fanned out to endpoints. */
export interface WebhookEvent {
  id: string;
  account_id: number;
  type: DeliveredEventType;
  subject: { kind: EventSubjectKind; id: number | string };
  /** Deliveries of events with the same order key reach an endpoint one after another, oldest first. */
  order_key: string;
  /** Only this endpoint gets it (a ping); otherwise every enabled endpoint subscribed to its type. */
  endpoint_id?: string;
  created_at: string;
}

type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  account_id: number;
  endpoint_id: string;
  event_id: string;
  type: DeliveredEventType;
  order_key: string;
  /** The exact body sent on every attempt (the signature covers it). */
  payload: string;
  /** Attempts made so far. */
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  latency_ms: number | null;
  /** What the last attempt met, in words (a status, a timeout, a refused address). */
  last_error: string | null;
  /** When the next attempt is due; null when settled, or while an earlier delivery of its order key is pending. */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The answer to one attempt, as the sender saw it. */
export type AttemptResult =
  | { kind: 'answered'; status: number; latencyMs: number }
  | { kind: 'unreachable'; message: string; latencyMs: number }
  /** The address policy refused the URL: retried like any failure (DNS may change back). */
  | { kind: 'refused'; message: string; latencyMs: number };

/** What a delivery becomes after an attempt, and what happens to its endpoint. */
export interface AttemptOutcome {
  delivery: Pick<WebhookDelivery, 'attempt' | 'status' | 'response_status' | 'latency_ms' | 'last_error' | 'next_attempt_at'>;
  endpoint: { failing_since: string | null; disable?: string };
}

const isSuccess = (result: AttemptResult) => result.kind === 'answered' && result.status >= 200 && result.status < 300;

/**
 * Settles one attempt: a 2xx succeeds; 410 Gone says the endpoint is gone for good, so the delivery
 * fails and the endpoint is disabled at once; anything else (a 3xx: redirects are not followed) is
 * retried on the schedule until the attempts run out. An endpoint failing for 3 days is disabled.
 */
export function settleAttempt(delivery: Pick<WebhookDelivery, 'attempt'>, endpoint: Pick<WebhookEndpoint, 'failing_since'>, result: AttemptResult, now: Date): AttemptOutcome {
  const attempt = delivery.attempt + 1;
  const common = { attempt, response_status: result.kind === 'answered' ? result.status : null, latency_ms: result.latencyMs };
  if (isSuccess(result)) {
    return { delivery: { ...common, status: 'succeeded', last_error: null, next_attempt_at: null }, endpoint: { failing_since: null } };
  }
  const failingSince = endpoint.failing_since ?? now.toISOString();
  const lastError = describeFailure(result);
  if (result.kind === 'answered' && result.status === 410) {
    return {
      delivery: { ...common, status: 'failed', last_error: lastError, next_attempt_at: null },
      endpoint: { failing_since: failingSince, disable: 'The endpoint answered 410 Gone' },
    };
  }
  const failingTooLong = now.getTime() - Date.parse(failingSince) >= WEBHOOK_LIMITS.disableAfterMs;
  const disable = failingTooLong ? 'Deliveries failed for 3 days without a success' : undefined;
  const delay = RETRY_DELAYS_S[attempt - 1];
  if (delay === undefined || disable) {
    return { delivery: { ...common, status: 'failed', last_error: lastError, next_attempt_at: null }, endpoint: { failing_since: failingSince, disable } };
  }
  return {
    delivery: { ...common, status: 'pending', last_error: lastError, next_attempt_at: new Date(now.getTime() + delay * 1000).toISOString() },
    endpoint: { failing_since: failingSince },
  };
}

function describeFailure(result: AttemptResult): string {
  if (result.kind !== 'answered') return result.message;
  if (result.status >= 300 && result.status < 400) return `Answered ${result.status}: redirects are not followed; point the endpoint at the final URL`;
  return `Answered ${result.status}`;
}

/** The endpoints an event goes to: the one it names (a ping, enabled or not), or every enabled one subscribed to its type. */
export const recipientsOf = (event: Pick<WebhookEvent, 'type' | 'endpoint_id'>, endpoints: WebhookEndpoint[]) =>
  event.endpoint_id
    ? endpoints.filter((endpoint) => endpoint.id === event.endpoint_id)
    : endpoints.filter((endpoint) => endpoint.enabled && event.type !== PING_EVENT && endpoint.events.includes(event.type));

/** The body every attempt of a delivery sends: `{id, type, created_at, data}`. */
export const eventPayload = (event: Pick<WebhookEvent, 'id' | 'type' | 'created_at'>, data: unknown): string =>
  JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data });

/** An endpoint as the API shows it: never its secret, except in the answer that created it. */
export function endpointView(endpoint: WebhookEndpoint, options: { withSecret?: boolean } = {}) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason,
    ...(options.withSecret ? { secret: endpoint.secret } : {}),
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

export function deliveryView(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    type: delivery.type,
    attempt: delivery.attempt,
    status: delivery.status,
    response_status: delivery.response_status,
    latency_ms: delivery.latency_ms,
    last_error: delivery.last_error,
    next_attempt_at: delivery.next_attempt_at,
    created_at: delivery.created_at,
  };
}

/** Which receivers a runtime lets events reach: loopback only on the local stack, where receivers are on this machine. */
export interface ReceiverPolicy {
  allowLoopback: boolean;
}

/** Why a webhook URL is refused before any address is looked up; undefined when its form is fine. */
export function webhookUrlProblem(raw: string, policy: ReceiverPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a #fragment';
  const loopbackHost = isLoopbackName(url.hostname);
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && policy.allowLoopback && loopbackHost) return undefined;
  return policy.allowLoopback ? 'must be https (plain http only to a loopback address on the local stack)' : 'must be https';
}

/** Host names that are loopback whatever DNS says. */
const isLoopbackName = (hostname: string) => ['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/** A post published on some channels only counts as failed: something needs the account's attention (data.status says which). */
export const postEventOf = (status: string): WebhookEventType | undefined =>
  status === 'published' ? 'social.post.published' : status === 'failed' || status === 'partially_published' ? 'social.post.failed' : undefined;
