/** Webhook endpoints and deliveries as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES, type SubscribedEvent } from '#domain/webhooks';
import { SECRET_OVERLAP_S } from '#domain/webhook-secrets';
import { ATTEMPT_LOG_LIMIT } from '#domain/webhook-attempts';
import { describedEnum, withoutControlCharacters } from './common';
import { timestamp } from './envelope';

const url = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(2048, 'must be at most 2048 characters'), withoutControlCharacters('line'));

const SUBSCRIBABLE = [...WEBHOOK_EVENT_TYPES, ALL_EVENTS] as [SubscribedEvent, ...SubscribedEvent[]];
const eventType = z.enum(SUBSCRIBABLE, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}, or "${ALL_EVENTS}" alone for every event` }).check(
  z.meta({ description: `An event type, or \`${ALL_EVENTS}\` (alone): every event type, those added later included` }),
);
const events = z
  .array(eventType, { error: 'must be a list of event names' })
  .check(
    z.minLength(1, 'must name at least one event'),
    z.refine((list) => new Set(list).size === list.length, 'names an event twice'),
    z.refine((list) => !list.includes(ALL_EVENTS) || list.length === 1, `"${ALL_EVENTS}" stands alone: it already takes every event`),
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

export const rotateSecretInput = z.strictObject({
  expires_in_s: z.optional(
    z
      .int({ error: `must be a whole number of seconds from 0 to ${SECRET_OVERLAP_S.max}` })
      .check(
        z.minimum(0, `must be a whole number of seconds from 0 to ${SECRET_OVERLAP_S.max}`),
        z.maximum(SECRET_OVERLAP_S.max, `must be at most ${SECRET_OVERLAP_S.max} (7 days)`),
        z.meta({ description: `How long the replaced secret keeps signing beside the new one, in seconds: ${SECRET_OVERLAP_S.default} (24 h) unless given, at most ${SECRET_OVERLAP_S.max} (7 days); 0 ends it at once` }),
      ),
  ),
});
export type RotateSecretInput = z.infer<typeof rotateSecretInput>;

const endpointFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(eventType),
  description: z.nullable(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.nullable(z.string()).check(z.meta({ description: 'Why the service disabled the endpoint (a 410 Gone, or 3 days of failures); PATCH `enabled: true` turns it back on' })),
  previous_secret_expires_at: z.nullable(timestamp).check(
    z.meta({ description: 'Until when the secret the last rotation replaced still signs beside the current one (`webhook-signature` then carries both); null when none does' }),
  ),
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

export const rotatedWebhookResponse = z
  .object({
    ...endpointFields,
    secret: z.string().check(z.meta({ description: 'The new signing secret (`whsec_...`): shown only in this answer (and its replay by Idempotency-Key)' })),
  })
  .register(z.globalRegistry, { id: 'RotatedWebhook' });

const attemptResponse = z
  .object({
    number: z.int().check(z.positive(), z.meta({ description: "An automatic attempt's place in the retry schedule (1-8); a manual one's count among the manual retries" })),
    trigger: z.enum(['automatic', 'manual']).check(z.meta({ description: '`automatic`: the retry schedule; `manual`: POST .../retry' })),
    at: timestamp.check(z.meta({ description: 'When it was sent' })),
    outcome: z.enum(['succeeded', 'failed']),
    message: z.string().check(z.meta({ description: 'What it met, in words: `Answered 204`, `No answer within 10 s`, a refused address' })),
    response_status: z.nullable(z.int()),
    duration_ms: z.int().check(z.nonnegative()),
  })
  .register(z.globalRegistry, { id: 'WebhookAttempt', description: 'One attempt of a delivery' });

export const webhookDeliveryResponse = z
  .object({
    id: z.string(),
    event_id: z.string().check(z.meta({ description: 'The `webhook-id` header and the payload `id`: the same on every attempt, so a receiver can drop repeats' })),
    type: z.string(),
    attempt: z.int().check(z.nonnegative()),
    status: describedEnum(['pending', 'succeeded', 'failed'], {
      pending: 'Not delivered yet: `next_attempt_at` says when the next automatic attempt is due',
      succeeded: 'A 2xx came back in time',
      failed: 'Given up (every automatic attempt failed, or the endpoint was deleted): a manual retry may still be sent',
    }),
    response_status: z.nullable(z.int()),
    latency_ms: z.nullable(z.int()),
    last_error: z.nullable(z.string()),
    next_attempt_at: z.nullable(timestamp).check(z.meta({ description: 'When the next automatic attempt is due; null when settled, or while an earlier event of the same record is still being delivered' })),
    attempts: z.array(attemptResponse).check(
      z.meta({ description: `Its attempts, oldest first: every automatic one, and the newest manual ones (at most ${ATTEMPT_LOG_LIMIT} in all; \`attempt\` counts every one)` }),
    ),
    created_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'WebhookDelivery', description: 'One event sent to one endpoint, with its attempts so far' });

export const deletedWebhookResponse = z.object({ id: z.string(), deleted: z.literal(true) }).register(z.globalRegistry, { id: 'DeletedWebhook' });

export const testEventResponse = z
  .object({ event_id: z.string().check(z.meta({ description: 'The ping event: find its delivery in GET /webhooks/{id}/deliveries' })) })
  .register(z.globalRegistry, { id: 'TestEvent' });
