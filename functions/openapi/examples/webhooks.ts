/** Examples of webhook endpoints, their deliveries, and the body of each event type the service sends. */
import type * as z from 'zod/mini';
import type { DeliveredEventType } from '#domain/webhooks';
import {
  createdWebhookResponse,
  deletedWebhookResponse,
  rotatedWebhookResponse,
  testEventResponse,
  webhookDeliveryResponse,
  webhookResponse,
} from '#domain/schemas/webhooks';
import { WEBHOOK_EVENT_PAYLOADS, sentEventsResponse, webhookEventResponse } from '#domain/schemas/webhook-events';
import { AVATAR, AVATAR_FAILED, JOB_DONE, JOB_FAILED, JOB_PREVIEW_READY, PRODUCT, PRODUCT_DEMO_FAILED } from './media';
import { POST, POST_FAILED } from './social';
import { CREATED_AT, DELIVERY_ID, EVENT_ID, UPDATED_AT, WEBHOOK_ID, sample } from './sample';

const ENDPOINT: z.output<typeof webhookResponse> = {
  id: WEBHOOK_ID,
  url: 'https://hooks.glowlabs.example/reaction-studio',
  events: ['video.job.done', 'video.job.failed'],
  description: 'Order fulfilment',
  enabled: true,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** What each event type's `data` is in its example: the record at the moment the event describes. */
const EVENT_DATA: { [T in DeliveredEventType]: z.output<(typeof WEBHOOK_EVENT_PAYLOADS)[T]>['data'] } = {
  'video.job.preview_ready': JOB_PREVIEW_READY,
  'video.job.done': JOB_DONE,
  'video.job.failed': JOB_FAILED,
  'product.demo.ready': PRODUCT,
  'product.demo.failed': PRODUCT_DEMO_FAILED,
  'avatar.ready': AVATAR,
  'avatar.failed': AVATAR_FAILED,
  'social.post.published': POST,
  'social.post.failed': POST_FAILED,
  ping: ENDPOINT,
};

/** The body a delivery of this type carries. */
export const eventExample = (type: DeliveredEventType) => ({ id: EVENT_ID, type, created_at: UPDATED_AT, data: EVENT_DATA[type] });

const ATTEMPT = { number: 1, trigger: 'automatic', at: UPDATED_AT, outcome: 'succeeded', message: 'Answered 204', response_status: 204, duration_ms: 182 } as const;

export const WEBHOOK_SAMPLES = [
  sample(webhookResponse, ENDPOINT),
  sample(createdWebhookResponse, { ...ENDPOINT, secret: SECRET }),
  sample(rotatedWebhookResponse, { ...ENDPOINT, secret: 'whsec_2T8yJ0cQw4Vn6bXe1LmZr9HsPkUa3DfG', previous_secret_expires_at: '2026-11-26T12:01:42.000Z', updated_at: UPDATED_AT }),
  sample(deletedWebhookResponse, { id: WEBHOOK_ID, deleted: true }),
  sample(webhookDeliveryResponse, {
    id: DELIVERY_ID,
    event_id: EVENT_ID,
    type: 'video.job.done',
    attempt: 1,
    status: 'succeeded',
    response_status: 204,
    latency_ms: 182,
    last_error: null,
    next_attempt_at: null,
    attempts: [ATTEMPT],
    created_at: UPDATED_AT,
  }),
  sample(testEventResponse, { event_id: EVENT_ID }),
  ...(Object.keys(EVENT_DATA) as DeliveredEventType[]).map((type) => sample(WEBHOOK_EVENT_PAYLOADS[type], eventExample(type))),
  sample(webhookEventResponse, eventExample('video.job.done')),
  sample(sentEventsResponse, { data: [eventExample('video.job.done')], meta: { next_after: EVENT_ID } }),
];
