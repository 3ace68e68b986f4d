/**
 * POST/GET/PATCH/DELETE /webhooks: an account's endpoints, and the rotation of their secrets. A URL
 * is vetted when it is set (its host must resolve to allowed addresses) and again on every delivery
 * attempt, since DNS can change.
 */
import { randomBytes } from 'node:crypto';
import { AppError, badRequest, notFound } from '#domain/errors';
import { WEBHOOK_LIMITS, type WebhookEndpoint } from '#domain/webhooks';
import { rotatedSecrets, SECRET_OVERLAP_S } from '#domain/webhook-secrets';
import type { CreateWebhookInput, RotateSecretInput, UpdateWebhookInput } from '#domain/schemas/webhooks';
import type { Ports } from '#ports/ports';
import type { EndpointChanges } from '#ports/webhook-store';

type EndpointDeps = Pick<Ports, 'webhooks' | 'webhookReceivers' | 'now'>;

/** Standard Webhooks secrets: `whsec_` and 24 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const newEndpointId = () => `wh_${randomBytes(10).toString('hex')}`;

export async function createWebhook(deps: EndpointDeps, accountId: number, input: CreateWebhookInput): Promise<WebhookEndpoint> {
  await vetUrl(deps, input.url);
  const now = deps.now().toISOString();
  const endpoint: WebhookEndpoint = {
    id: newEndpointId(),
    account_id: accountId,
    url: input.url,
    events: input.events,
    description: input.description || null,
    enabled: true,
    secret: newSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    failing_since: null,
    disabled_reason: null,
    created_at: now,
    updated_at: now,
  };
  await deps.webhooks.createEndpoint(endpoint, {
    limit: WEBHOOK_LIMITS.endpointsPerAccount,
    refusal: () => new AppError('conflict', `An account has at most ${WEBHOOK_LIMITS.endpointsPerAccount} webhook endpoints; delete one first`),
  });
  return endpoint;
}

export async function getWebhook(deps: Pick<Ports, 'webhooks'>, accountId: number, endpointId: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.webhooks.getEndpoint(accountId, endpointId);
  if (!endpoint) throw notFound('Webhook');
  return endpoint;
}

export async function updateWebhook(deps: EndpointDeps, accountId: number, endpointId: string, input: UpdateWebhookInput): Promise<WebhookEndpoint> {
  await getWebhook(deps, accountId, endpointId);
  if (input.url !== undefined) await vetUrl(deps, input.url);
  const changes: EndpointChanges = { url: input.url, events: input.events, enabled: input.enabled };
  if (input.description !== undefined) changes.description = input.description || null;
  // Turned on or off by the account: the service's reason and the failure streak no longer apply.
  if (input.enabled !== undefined) Object.assign(changes, { disabled_reason: null, failing_since: null });
  const updated = await deps.webhooks.updateEndpoint(accountId, endpointId, changes, deps.now());
  if (!updated) throw notFound('Webhook');
  return updated;
}

/**
 * A new secret, answered once; the one it replaces keeps signing beside it for `expires_in_s` (24 h
 * unless asked). Made over the secret it replaces: of two rotations at once, one is 409.
 */
export async function rotateWebhookSecret(deps: EndpointDeps, accountId: number, endpointId: string, input: RotateSecretInput): Promise<WebhookEndpoint> {
  const endpoint = await getWebhook(deps, accountId, endpointId);
  const now = deps.now();
  const secrets = rotatedSecrets(endpoint, newSecret(), input.expires_in_s ?? SECRET_OVERLAP_S.default, now);
  const rotated = await deps.webhooks.updateEndpoint(accountId, endpointId, secrets, now, endpoint.secret);
  if (rotated) return rotated;
  await getWebhook(deps, accountId, endpointId);
  throw new AppError('conflict', 'The secret was rotated by another request meanwhile; rotate again to get a secret of your own');
}

export async function deleteWebhook(deps: Pick<Ports, 'webhooks'>, accountId: number, endpointId: string): Promise<void> {
  if (!(await deps.webhooks.deleteEndpoint(accountId, endpointId))) throw notFound('Webhook');
}

async function vetUrl(deps: Pick<Ports, 'webhookReceivers'>, url: string): Promise<void> {
  const problem = await deps.webhookReceivers.vet(url);
  if (problem) throw badRequest(problem);
}
