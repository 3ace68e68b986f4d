/**
 * What every delivery's body is, one shape per event type: `{id, type, created_at, data}`, `data`
 * being the record its type is about (EVENT_SUBJECTS) as its GET answers it, or `{id, deleted: true}`
 * once that record is gone. GET /webhooks/events lists these, and the API description's `webhooks`
 * section documents each type with its shape.
 */
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { EVENT_SUBJECTS, PING_EVENT, WEBHOOK_EVENT_TYPES, type DeliveredEventType, type EventSubjectKind } from '#domain/webhooks';
import { deletedRecord, timestamp } from './envelope';
import { jobResponse } from './job';
import { productResponse } from './product';
import { avatarResponse } from './avatar';
import { postResponse } from './social';
import { deletedWebhookResponse, webhookResponse } from './webhooks';

/** Each kind of record as its GET answers it, or what is left once it is deleted before the event is sent. */
const SUBJECTS: Record<EventSubjectKind, { record: ZodMiniType; gone: ZodMiniType }> = {
  job: { record: jobResponse, gone: deletedRecord },
  product: { record: productResponse, gone: deletedRecord },
  avatar: { record: avatarResponse, gone: deletedRecord },
  post: { record: postResponse, gone: deletedRecord },
  endpoint: { record: webhookResponse, gone: deletedWebhookResponse },
};

/** `video.job.preview_ready` → `VideoJobPreviewReadyEvent`: the component name of its payload. */
export const payloadNameOf = (type: DeliveredEventType) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

function payloadOf<T extends DeliveredEventType>(type: T) {
  const { subject, sentWhen } = EVENT_SUBJECTS[type];
  const { record, gone } = SUBJECTS[subject];
  return z
    .object({
      id: z.string().check(z.meta({ description: 'The event id (`evt_` and 32 hex digits), also the `webhook-id` header: the same on every attempt, so a receiver can drop repeats' })),
      type: z.literal(type).check(z.meta({ description: 'The event type: what happened, and what `data` is' })),
      created_at: timestamp.check(z.meta({ description: 'When the change that raised the event happened' })),
      data: z.union([record, gone]).check(
        z.meta({ description: `The ${subject} as its GET answers it when the event is sent (links freshly signed), or \`{id, deleted: true}\` if it was deleted before` }),
      ),
    })
    .register(z.globalRegistry, { id: payloadNameOf(type), description: `\`${type}\`: ${sentWhen}` });
}

const DELIVERED_TYPES = [...WEBHOOK_EVENT_TYPES, PING_EVENT] as const;

/** Every delivered type's payload, keyed by its type. */
export const WEBHOOK_EVENT_PAYLOADS = Object.fromEntries(DELIVERED_TYPES.map((type) => [type, payloadOf(type)])) as Record<
  DeliveredEventType,
  ReturnType<typeof payloadOf>
>;

/** Any event, told apart by its `type`. */
export const webhookEventResponse = z
  .discriminatedUnion('type', DELIVERED_TYPES.map((type) => WEBHOOK_EVENT_PAYLOADS[type]) as [ReturnType<typeof payloadOf>, ...ReturnType<typeof payloadOf>[]])
  .register(z.globalRegistry, { id: 'WebhookEvent', description: 'An event as its deliveries carry it: `data` is the record its `type` is about' });

export const sentEventsResponse = z.object({
  data: z.array(webhookEventResponse).check(z.meta({ description: 'Events, oldest first' })),
  meta: z.object({
    next_after: z.nullable(z.string()).check(z.meta({ description: 'The `after` of the next call: the last event listed, or the `after` given when none was; null when the account has no events yet' })),
  }).check(z.meta({ description: 'Where the list stands' })),
});
