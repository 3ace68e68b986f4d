/**
 * Verifying the service's webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the endpoint's `whsec_` secret, through the scheme's own library, which
 * also refuses a timestamp more than 5 minutes off (replays). While a rotated-out secret still signs,
 * `webhook-signature` carries one signature per secret: either secret verifies it.
 */
import { Webhook, WebhookVerificationError as LibraryVerificationError } from 'standardwebhooks';
import type { components } from './schema.js';

type AnyWebhookEvent = components['schemas']['WebhookEvent'];

/**
 * What a delivery's body holds, told apart by `type` (the document's `webhooks` section): `data` is
 * the record that type is about as its GET answers it (a job, a product, an avatar, a post; a ping's:
 * the endpoint), or `{id, deleted: true}` if it was deleted before the event was sent. Narrow on
 * `event.type` and `event.data` is typed. `WebhookEvent<T>` is an event whose `data` you name
 * yourself, as before the events were typed.
 */
export type WebhookEvent<T = never> = [T] extends [never] ? AnyWebhookEvent : UntypedWebhookEvent<T>;

/** What an event's `type` can be: every type an endpoint can name (`*` is a subscription, never a type), and `ping`. */
export type WebhookEventType = AnyWebhookEvent['type'];

/** The event of one type: `WebhookEventOf<'video.job.done'>['data']` is the job. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<AnyWebhookEvent, { type: T }>;

/** An event whose `data` the caller names (`verifyWebhook<T>`, `WebhookEvent<T>`). */
interface UntypedWebhookEvent<T> {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: T;
}

/**
 * Ours rather than the library's class: its declarations name Node's Buffer, which would make this
 * package's types need @types/node in a browser project.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** Headers as a record (any case) or a Fetch `Headers`. */
type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Iterable<[string, unknown]> = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (typeof value === 'string') out[name.toLowerCase()] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') out[name.toLowerCase()] = value[0];
  }
  return out;
}

/**
 * The event, once its signature checks out against the raw body exactly as received; throws
 * WebhookVerificationError otherwise. Use the `webhook-id` (the event's id) to drop repeats: delivery
 * is at least once. `rawBody` is a string or the bytes (a Node Buffer is a Uint8Array). `secret` may
 * be several (a receiver switching secrets on its own schedule): any one that verifies will do.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string | readonly string[]): WebhookEvent;
/** As before the events were typed: `data` of the type you name (narrowing on `type` needs no name). */
export function verifyWebhook<T>(rawBody: string | Uint8Array, headers: HeaderSource, secret: string | readonly string[]): WebhookEvent<T>;
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string | readonly string[]): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('No secret to verify with');
  const record = headerRecord(headers);
  let refusal: WebhookVerificationError | undefined;
  for (const candidate of secrets) {
    try {
      return new Webhook(candidate).verify(body, record) as WebhookEvent;
    } catch (error) {
      if (!(error instanceof LibraryVerificationError)) throw error;
      refusal = new WebhookVerificationError(error.message);
    }
  }
  throw refusal!;
}

/** The three Standard Webhooks headers of a signed delivery. */
export type WebhookHeaders = Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;

/**
 * The headers that sign `body` as event `id` with `secret`, as the service signs its deliveries:
 * what `reaction-studio webhooks listen` forwards events with, and a way for a receiver's tests to
 * make deliveries `verifyWebhook` accepts.
 */
export function signWebhook(body: string, id: string, secret: string, at: Date = new Date()): WebhookHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}
