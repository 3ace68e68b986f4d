/**
 * The document's `webhooks` section: what the service POSTs to an account's endpoints, one entry per
 * event type it sends (the domain's list, EVENT_SUBJECTS), each with its payload and the Standard
 * Webhooks headers that sign it. docs/webhooks.md tells the rest (retries, ordering, rotation).
 */
import type { ZodOpenApiObject, ZodOpenApiOperationObject } from 'zod-openapi';
import { EVENT_SUBJECTS, WEBHOOK_LIMITS, type DeliveredEventType } from '#domain/webhooks';
import { payloadNameOf } from '#domain/schemas/webhook-events';
import { eventExample } from './examples';

export const WEBHOOK_TAG = { name: 'webhook events', description: 'What the service sends to your webhook endpoints (POST /webhooks): one signed POST per event' };

/** The headers every delivery carries (Standard Webhooks), shared by every event's entry. */
export const webhookParameters = {
  WebhookEventId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_...`), the same on every attempt: drop a delivery whose id you have handled (delivery is at least once)',
    schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse one more than 5 minutes off your clock (a replay)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64 part of the endpoint\'s `whsec_` secret; ' +
      'while a rotated-out secret still signs, a second entry follows, space-separated. Verify against the raw body before parsing it (`verifyWebhook` in the client)',
    schema: { type: 'string' },
  },
} as const;

const RETRIES = 'about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later';

function entry(type: DeliveredEventType): ZodOpenApiOperationObject {
  const { subject, sentWhen } = EVENT_SUBJECTS[type];
  return {
    operationId: `on${payloadNameOf(type).replace(/Event$/, '')}`,
    tags: [WEBHOOK_TAG.name],
    summary: type,
    description: `${sentWhen} \`data\` is the ${subject} as its GET answers it when the event is sent, or \`{id, deleted: true}\` if it was deleted before.`,
    // The receiver checks the signature headers, not a credential of this API.
    security: [],
    parameters: Object.keys(webhookParameters).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    requestBody: {
      required: true,
      // By reference to the component GET /webhooks/events answers with: a body the service sends has an answer's shape, not a request's
      // (given as a schema here, zod-openapi would render each record a second time, as input).
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${payloadNameOf(type)}` }, example: eventExample(type) } },
    },
    responses: {
      '200': {
        description: `Received: any 2xx within ${WEBHOOK_LIMITS.timeoutMs / 1000} s settles the delivery. Anything else, or no answer in time, is retried ${RETRIES}; 3 days of failures disable the endpoint.`,
      },
      '410': { description: 'Gone: the endpoint is disabled at once and gets nothing more until PATCH /webhooks/{webhook_id} turns it back on.' },
    },
  } as ZodOpenApiOperationObject;
}

export function webhookEntries(): NonNullable<ZodOpenApiObject['webhooks']> {
  return Object.fromEntries((Object.keys(EVENT_SUBJECTS) as DeliveredEventType[]).map((type) => [type, { post: entry(type) }]));
}
