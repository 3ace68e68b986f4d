/** The events a state change raises: written by the store in the same write as the change. */
import { randomUUID } from 'node:crypto';
import type { DeliveredEventType, EventSubjectKind, WebhookEvent } from '#domain/webhooks';

export function raiseEvent(type: DeliveredEventType, accountId: number, subject: { kind: EventSubjectKind; id: number | string }, now: Date): WebhookEvent {
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    account_id: accountId,
    type,
    subject,
    // One record's events reach an endpoint in the order they happened.
    order_key: `${subject.kind}-${subject.id}`,
    created_at: now.toISOString(),
  };
}
