/** Webhook endpoints and deliveries as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES, type SubscribedEvent } from '#domain/webhooks';
import { SECRET_OVERLAP_S } from '#domain/webhook-secrets';
import { ATTEMPT_LOG_LIMIT } from '#domain/webhook-attempts';
import { describedEnum, trimmedText, withoutControlCharacters } from './common';
import { createdAt, timestamp, updatedAt } from './envelope';

const url = trimmedText('line', 2048);

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

const URL_MEANING = 'Where events are POSTed: https, to a host that resolves to public addresses (checked now and on every attempt); redirects are not followed';
const EVENTS_MEANING = `The event types to send (the document's \`webhooks\` section shows each), or \`["${ALL_EVENTS}"]\` for every type, those added later included`;
const DESCRIPTION_MEANING = 'What the endpoint is for, to tell endpoints apart (at most 200 characters)';

export const createWebhookInput = z.strictObject({
  url: url.check(z.meta({ description: URL_MEANING })),
  events: events.check(z.meta({ description: EVENTS_MEANING })),
  description: z.optional(description.check(z.meta({ description: DESCRIPTION_MEANING }))),
});
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z
  .strictObject({
    url: z.optional(url.check(z.meta({ description: `A new URL, vetted as at creation. ${URL_MEANING}` }))),
    events: z.optional(events.check(z.meta({ description: EVENTS_MEANING }))),
    /** `null` clears it. */
    description: z.optional(z.nullable(description).check(z.meta({ description: `${DESCRIPTION_MEANING}; \`null\` clears it` }))),
    /** `true` re-enables an endpoint the service disabled, and clears its failure streak. */
    enabled: z.optional(
      z.boolean({ error: 'must be true or false' }).check(z.meta({ description: '`false` stops deliveries; `true` turns the endpoint back on (one the service disabled too) and clears its failure streak' })),
    ),
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
  id: z.string().check(z.meta({ description: "The endpoint's id (`wh_...`)" })),
  url: z.string().check(z.meta({ description: 'Where events are POSTed' })),
  events: z.array(eventType).check(z.meta({ description: 'The event types it takes, or `["*"]` for every type' })),
  description: z.nullable(z.string()).check(z.meta({ description: 'What it is for; null: not said' })),
  enabled: z.boolean().check(z.meta({ description: 'Whether events go to it: false once disabled (by PATCH, a 410 Gone, or 3 days of failures)' })),
  disabled_reason: z.nullable(z.string()).check(z.meta({ description: 'Why the service disabled the endpoint (a 410 Gone, or 3 days of failures); PATCH `enabled: true` turns it back on' })),
  previous_secret_expires_at: z.nullable(timestamp).check(
    z.meta({ description: 'Until when the secret the last rotation replaced still signs beside the current one (`webhook-signature` then carries both); null when none does' }),
  ),
  created_at: createdAt,
  updated_at: updatedAt,
};

export const webhookResponse = z.object(endpointFields).register(z.globalRegistry, { id: 'Webhook', description: 'An endpoint that receives signed events' });

export const createdWebhookResponse = z
  .object({
    ...endpointFields,
    secret: z.string().check(z.meta({ description: 'The signing secret (`whsec_...`): shown only in this answer. Verify each delivery with it (Standard Webhooks)' })),
  })
  .register(z.globalRegistry, { id: 'CreatedWebhook', description: 'A new endpoint, with its signing secret: shown this once' });

export const rotatedWebhookResponse = z
  .object({
    ...endpointFields,
    secret: z.string().check(z.meta({ description: 'The new signing secret (`whsec_...`): shown only in this answer (and its replay by Idempotency-Key)' })),
  })
  .register(z.globalRegistry, { id: 'RotatedWebhook', description: 'The endpoint with its new signing secret: shown this once' });

const attemptResponse = z
  .object({
    number: z.int().check(z.positive(), z.meta({ description: "An automatic attempt's place in the retry schedule (1-8); a manual one's count among the manual retries" })),
    trigger: z.enum(['automatic', 'manual']).check(z.meta({ description: '`automatic`: the retry schedule; `manual`: POST .../retry' })),
    at: timestamp.check(z.meta({ description: 'When it was sent' })),
    outcome: z.enum(['succeeded', 'failed']).check(z.meta({ description: '`succeeded`: a 2xx in time; `failed`: anything else' })),
    message: z.string().check(z.meta({ description: 'What it met, in words: `Answered 204`, `No answer within 10 s`, a refused address' })),
    response_status: z.nullable(z.int()).check(z.meta({ description: "The receiver's HTTP status; null when it did not answer" })),
    duration_ms: z.int().check(z.nonnegative(), z.meta({ description: 'How long the attempt took, in milliseconds' })),
  })
  .register(z.globalRegistry, { id: 'WebhookAttempt', description: 'One attempt of a delivery' });

export const webhookDeliveryResponse = z
  .object({
    id: z.string().check(z.meta({ description: "The delivery's id (`whd_...`): what POST .../retry names" })),
    event_id: z.string().check(z.meta({ description: 'The `webhook-id` header and the payload `id`: the same on every attempt, so a receiver can drop repeats' })),
    type: z.string().check(z.meta({ description: "The event's type" })),
    attempt: z.int().check(z.nonnegative(), z.meta({ description: 'Attempts made so far, automatic and manual' })),
    status: describedEnum(['pending', 'succeeded', 'failed'], {
      pending: 'Not delivered yet: `next_attempt_at` says when the next automatic attempt is due',
      succeeded: 'A 2xx came back in time',
      failed: 'Given up (every automatic attempt failed, or the endpoint was deleted): a manual retry may still be sent',
    }),
    response_status: z.nullable(z.int()).check(z.meta({ description: "The last attempt's HTTP status; null before any, or when it got no answer" })),
    latency_ms: z.nullable(z.int()).check(z.meta({ description: 'How long the last attempt took, in milliseconds' })),
    last_error: z.nullable(z.string()).check(z.meta({ description: 'What the last failed attempt met, in words; null after a success' })),
    next_attempt_at: z.nullable(timestamp).check(z.meta({ description: 'When the next automatic attempt is due; null when settled, or while an earlier event of the same record is still being delivered' })),
    attempts: z.array(attemptResponse).check(
      z.meta({ description: `Its attempts, oldest first: every automatic one, and the newest manual ones (at most ${ATTEMPT_LOG_LIMIT} in all; \`attempt\` counts every one)` }),
    ),
    created_at: timestamp.check(z.meta({ description: 'When the event was fanned out to this endpoint' })),
  })
  .register(z.globalRegistry, { id: 'WebhookDelivery', description: 'One event sent to one endpoint, with its attempts so far' });

export const deletedWebhookResponse = z
  .object({ id: z.string().check(z.meta({ description: 'The id of the endpoint deleted' })), deleted: z.literal(true).check(z.meta({ description: 'Always true' })) })
  .register(z.globalRegistry, { id: 'DeletedWebhook', description: 'An endpoint deleted: nothing more is sent to it' });

export const testEventResponse = z
  .object({ event_id: z.string().check(z.meta({ description: 'The ping event: find its delivery in GET /webhooks/{id}/deliveries' })) })
  .register(z.globalRegistry, { id: 'TestEvent', description: 'A ping queued for the endpoint' });
