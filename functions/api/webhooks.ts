/** Webhooks: endpoints that receive signed events, their secrets, delivery logs, retries and a test ping; the account's sent events. */
import type { ApiRequest, Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { pageMeta, pageParams, sliceLimit } from '#http/params';
import { accepted, created, ok } from '#http/respond';
import { badRequest } from '#domain/errors';
import { deliveryView, endpointView, sentEventView } from '#domain/webhooks';
import { createWebhookInput, rotateSecretInput, updateWebhookInput } from '#domain/schemas/webhooks';
import { createWebhook, deleteWebhook, getWebhook, rotateWebhookSecret, updateWebhook } from '#use-cases/webhook-endpoints';
import { listDeliveries, retryDelivery, sendTestEvent } from '#use-cases/webhook-deliveries';
import { answeredOnce } from './answered-once';

const ENDPOINT_ID = /^wh_[0-9a-f]{20}$/;
const DELIVERY_ID = /^whd_[0-9a-f]{24}$/;
const EVENT_ID = /^evt_[0-9a-f]{32}$/;

function stringParam(request: ApiRequest<unknown>, name: string, pattern: RegExp, what: string): string {
  const raw = request.pathParameters[name];
  if (raw === undefined || !pattern.test(raw)) throw badRequest(`Path parameter ${name} must be a ${what} id`);
  return raw;
}
const endpointParam = (request: ApiRequest<unknown>) => stringParam(request, 'webhook_id', ENDPOINT_ID, 'webhook');

const list: Operation<Pick<Ports, 'webhooks'>> = async (request) => ok((await request.deps.webhooks.listEndpoints(request.principal.accountId)).map((endpoint) => endpointView(endpoint)));

const create: Operation<NeedsOf<typeof createWebhook>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(createWebhookInput, body.fields, 'webhook');
  return created(endpointView(await createWebhook(request.deps, request.principal.accountId, input), { withSecret: true }));
};

const get: Operation<NeedsOf<typeof getWebhook>> = async (request) => ok(endpointView(await getWebhook(request.deps, request.principal.accountId, endpointParam(request))));

const update: Operation<NeedsOf<typeof updateWebhook>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(updateWebhookInput, body.fields, 'webhook');
  return ok(endpointView(await updateWebhook(request.deps, request.principal.accountId, endpointParam(request), input)));
};

const rotateSecret: Operation<NeedsOf<typeof rotateWebhookSecret>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(rotateSecretInput, body.fields, 'rotation');
  return ok(endpointView(await rotateWebhookSecret(request.deps, request.principal.accountId, endpointParam(request), input), { withSecret: true }));
};

const remove: Operation<NeedsOf<typeof deleteWebhook>> = async (request) => {
  const id = endpointParam(request);
  await deleteWebhook(request.deps, request.principal.accountId, id);
  return ok({ id, deleted: true });
};

const deliveries: Operation<NeedsOf<typeof listDeliveries>> = async (request) => {
  const page = pageParams(request);
  const found = await listDeliveries(request.deps, request.principal.accountId, endpointParam(request), page);
  return ok(found.items.map(deliveryView), 200, pageMeta(page, found.total));
};

const retry: Operation<NeedsOf<typeof retryDelivery>> = async (request) => {
  const deliveryId = stringParam(request, 'delivery_id', DELIVERY_ID, 'delivery');
  return ok(deliveryView(await retryDelivery(request.deps, request.principal.accountId, endpointParam(request), deliveryId)), 202);
};

/** The account's sent events, oldest first: after `after`, or the newest `limit` (GET /webhooks/events). */
const events: Operation<Pick<Ports, 'webhooks'>> = async (request) => {
  const after = request.query.after;
  if (after !== undefined && !EVENT_ID.test(after)) throw badRequest('Query parameter after must be an event id (evt_ and 32 hex digits)', 'after');
  const sent = await request.deps.webhooks.sentEvents(request.principal.accountId, { after, limit: sliceLimit(request) });
  return ok(sent.map(sentEventView), 200, { next_after: sent.at(-1)?.id ?? after ?? null });
};

const test: Operation<NeedsOf<typeof sendTestEvent>> = async (request) => accepted(await sendTestEvent(request.deps, request.principal.accountId, endpointParam(request)));

export const webhookOperations = { list, create: answeredOnce(create), get, update, rotateSecret: answeredOnce(rotateSecret), remove, deliveries, retry, test, events };
