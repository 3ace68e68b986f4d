/** Webhook endpoints and deliveries as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#domain/webhooks';
import { withoutControlCharacters } from './common';
import { timestamp } from './envelope';

const url = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(2048, 'must be at most 2048 characters'), withoutControlCharacters('line'));

const eventType = z.enum(WEBHOOK_EVENT_TYPES as unknown as [WebhookEventType, ...WebhookEventType[]], {
  error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});
const events = z
  .array(eventType, { error: 'must be a list of event names' })
  .check(
    z.minLength(1, 'must name at least one event'),
    z.refine((list) => new Set(list).size === list.length, 'names an event twice'),
  );
const description = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.maxLength(200, 'must be at most 200 characters'), withoutControlCharacters('line'));

export const createWebhookInput = z.strictObject({ url, events, description: z.optional(description) });
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z
  .strictObject({
    url: z.optional(url),
    events: z.optional(events),
    /** `null` clears it. */
    description: z.optional(z.nullable(description)),
    /** `true` re-enables an endpoint the service disabled, and clears its failure streak. */
    enabled: z.optional(z.boolean({ error: 'must be true or false' })),
  })
  .check(
    z.refine((v) => Object.values(v).some((field) => field !== undefined), {
      message: 'send at least one of url, events, description, enabled',
    }),
  );
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

const endpointFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(eventType),
  description: z.nullable(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.nullable(z.string()).check(z.meta({ description: 'Why the service disabled the endpoint (a 410 Gone, or 3 days of failures); PATCH `enabled: true` turns it back on' })),
  created_at: timestamp,
  updated_at: timestamp,
};

export const webhookResponse = z.object(endpointFields).register(z.globalRegistry, { id: 'Webhook', description: 'An endpoint that receives signed events' });

export const createdWebhookResponse = z
  .object({
    ...endpointFields,
    secret: z.string().check(z.meta({ description: 'The signing secret (`whsec_...`): shown only in this answer. Verify each delivery with it (Standard Webhooks)' })),
  })
  .register(z.globalRegistry, { id: 'CreatedWebhook' });

export const webhookDeliveryResponse = z
  .object({
    id: z.string(),
    event_id: z.string().check(z.meta({ description: 'The `webhook-id` header and the payload `id`: the same on every attempt, so a receiver can drop repeats' })),
    type: z.string(),
    attempt: z.int().check(z.nonnegative()),
    status: z.enum(['pending', 'succeeded', 'failed']),
    response_status: z.nullable(z.int()),
    latency_ms: z.nullable(z.int()),
    last_error: z.nullable(z.string()),
    next_attempt_at: z.nullable(timestamp),
    created_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'WebhookDelivery', description: 'One event sent to one endpoint, with its attempts so far' });

export const queuedDeliveryResponse = z
  .object({ id: z.string(), status: z.literal('pending'), next_attempt_at: z.nullable(timestamp) })
  .register(z.globalRegistry, { id: 'QueuedDelivery', description: 'A delivery queued to be sent at once' });

export const deletedWebhookResponse = z.object({ id: z.string(), deleted: z.literal(true) }).register(z.globalRegistry, { id: 'DeletedWebhook' });

export const testEventResponse = z
  .object({ event_id: z.string().check(z.meta({ description: 'The ping event: find its delivery in GET /webhooks/{id}/deliveries' })) })
  .register(z.globalRegistry, { id: 'TestEvent' });
