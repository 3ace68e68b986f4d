/** The events a state change raises: written by the store in the same write as the change. */
import { randomBytes } from 'node:crypto';
import type { DeliveredEventType, SubjectOf, WebhookEvent } from '#domain/webhooks';

/**
 * `evt_` and 32 hex digits: the raising time in milliseconds first (12), then 20 random ones, so an
 * account's events sort in the order they were raised (GET /webhooks/events follows them by id).
 */
const newEventId = (now: Date) => `evt_${now.getTime().toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`;

/** The subject must be the kind its type is about (EVENT_SUBJECTS): the payload the document promises is that record. */
export function raiseEvent<T extends DeliveredEventType>(type: T, accountId: number, subject: { kind: SubjectOf<T>; id: number | string }, now: Date): WebhookEvent {
  return {
    id: newEventId(now),
    account_id: accountId,
    type,
    subject,
    // One record's events reach an endpoint in the order they happened.
    order_key: `${subject.kind}-${subject.id}`,
    created_at: now.toISOString(),
  };
}
