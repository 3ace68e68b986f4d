/**
 * Webhooks: the events an account can subscribe to, what an endpoint, an event and a delivery are,
 * who receives an event, and which URLs may receive them. What an attempt does to a delivery is in
 * webhook-attempts.ts, signing secrets and their rotation in webhook-secrets.ts.
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
/** In an endpoint's `events`, alone: every event type, those of today and any added later. */
export const ALL_EVENTS = '*';
export type SubscribedEvent = WebhookEventType | typeof ALL_EVENTS;

/** The record an event is about; its payload's `data` is that record as its GET answers it. */
export type EventSubjectKind = 'job' | 'product' | 'avatar' | 'post' | 'endpoint';

/**
 * What each delivered type is about and when it is sent: raiseEvent takes only the subject its type
 * names, and the API description documents each type's payload from this table.
 */
export const EVENT_SUBJECTS = {
  'video.job.preview_ready': { subject: 'job', sentWhen: "A preview job's preview is ready to approve or regenerate (again after each regenerate)." },
  'video.job.done': { subject: 'job', sentWhen: 'A job finished with its video (`data.video_id`).' },
  'video.job.failed': { subject: 'job', sentWhen: 'A job ended failed (`data.error` says why); its allowance unit was released.' },
  'product.demo.ready': {
    subject: 'product',
    sentWhen: "A demo clip's background conversion ended ready (or, for a stack's first sample product, its clip was made).",
  },
  'product.demo.failed': { subject: 'product', sentWhen: "A demo clip's background conversion failed (`data.demo_video.error` says why)." },
  'avatar.ready': { subject: 'avatar', sentWhen: "A prompt avatar's background generation ended ready." },
  'avatar.failed': { subject: 'avatar', sentWhen: "A prompt avatar's background generation failed (`data.error` says why)." },
  'social.post.published': { subject: 'post', sentWhen: 'A refresh of a post found it published on every channel.' },
  'social.post.failed': {
    subject: 'post',
    sentWhen: 'A refresh of a post found it failed, or published on some channels only (`data.status` is `partially_published`).',
  },
  ping: { subject: 'endpoint', sentWhen: 'POST /webhooks/{webhook_id}/test asked for it: to that endpoint only, whatever it subscribes to.' },
} as const satisfies Record<DeliveredEventType, { subject: EventSubjectKind; sentWhen: string }>;

/** The subject kind a delivered type is about. */
export type SubjectOf<T extends DeliveredEventType> = (typeof EVENT_SUBJECTS)[T]['subject'];

export const WEBHOOK_LIMITS = {
  endpointsPerAccount: 10,
  /** A 2xx within this long is success; anything else is retried. */
  timeoutMs: 10_000,
  /** An endpoint that has failed without a success in between for this long is disabled. */
  disableAfterMs: 3 * 24 * 3600 * 1000,
  /** How much of a receiver's answer is kept for the delivery log. */
  responseExcerptBytes: 512,
} as const;

export interface WebhookEndpoint {
  id: string;
  account_id: number;
  url: string;
  events: SubscribedEvent[];
  description: string | null;
  enabled: boolean;
  /** `whsec_<base64>`: shown once, at creation or rotation. */
  secret: string;
  /** The secret the last rotation replaced: it signs beside `secret` until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
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

/** Who made an attempt: the retry schedule, or the account (POST .../retry). */
export type AttemptTrigger = 'automatic' | 'manual';

/** One attempt as the delivery log keeps it. */
export interface DeliveryAttempt {
  /** An automatic attempt's place in the schedule (1-8); a manual one's count among the manual ones. */
  number: number;
  trigger: AttemptTrigger;
  /** When it was sent. */
  at: string;
  outcome: 'succeeded' | 'failed';
  /** What it met, in words: `Answered 204`, `No answer within 10 s`, a refused address. */
  message: string;
  response_status: number | null;
  duration_ms: number;
}

export interface WebhookDelivery {
  id: string;
  account_id: number;
  endpoint_id: string;
  event_id: string;
  type: DeliveredEventType;
  order_key: string;
  /** The exact body sent on every attempt (the signature covers it). */
  payload: string;
  /** Attempts made so far, automatic and manual. */
  attempt: number;
  /** Attempts of the retry schedule made so far: the next automatic one is number `automatic_attempts + 1`. */
  automatic_attempts: number;
  manual_attempts: number;
  /** The newest attempts, oldest first (webhook-attempts.ts bounds the list). */
  attempts: DeliveryAttempt[];
  status: DeliveryStatus;
  response_status: number | null;
  latency_ms: number | null;
  /** What the last attempt met, in words (a status, a timeout, a refused address). */
  last_error: string | null;
  /**
   * When the next automatic attempt is due (the lease of one in flight while it is sent); null when
   * settled, or while an earlier delivery of its order key is pending.
   */
  next_attempt_at: string | null;
  /** The lease of the automatic attempt in flight: only the worker holding it records that attempt. */
  claimed_until: string | null;
  /** Raised by every write: a delivery is written only over the revision it was read at. */
  revision: number;
  created_at: string;
  updated_at: string;
}

/** The answer to one attempt, as the sender saw it. */
export type AttemptResult =
  | { kind: 'answered'; status: number; latencyMs: number }
  | { kind: 'unreachable'; message: string; latencyMs: number }
  /** The address policy refused the URL: retried like any failure (DNS may change back). */
  | { kind: 'refused'; message: string; latencyMs: number };

/** The endpoints an event goes to: the one it names (a ping, enabled or not), or every enabled one subscribed to its type. */
export const recipientsOf = (event: Pick<WebhookEvent, 'type' | 'endpoint_id'>, endpoints: WebhookEndpoint[]) =>
  event.endpoint_id
    ? endpoints.filter((endpoint) => endpoint.id === event.endpoint_id)
    : endpoints.filter((endpoint) => endpoint.enabled && event.type !== PING_EVENT && subscribes(endpoint, event.type));

/** `*` takes every event type, including those added after the endpoint was made. */
const subscribes = (endpoint: Pick<WebhookEndpoint, 'events'>, type: WebhookEventType) => endpoint.events.includes(ALL_EVENTS) || endpoint.events.includes(type);

/** An event once fanned out, with the body its deliveries send (GET /webhooks/events lists these). */
export interface SentEvent {
  id: string;
  payload: string;
}

/** A sent event as the API lists it: the body its deliveries carry, `{id, type, created_at, data}`. */
export const sentEventView = (event: SentEvent): unknown => JSON.parse(event.payload);

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
    previous_secret_expires_at: endpoint.previous_secret_expires_at,
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
    attempts: delivery.attempts,
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
export const postEventOf = (status: string): 'social.post.published' | 'social.post.failed' | undefined =>
  status === 'published' ? 'social.post.published' : status === 'failed' || status === 'partially_published' ? 'social.post.failed' : undefined;
