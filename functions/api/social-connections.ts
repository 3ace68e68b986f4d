/**
 * Social connections: the account's key for a scheduling provider, checked against the provider
 * before it is stored (sealed), and the channels the provider reaches with it.
 *
 * Decisions where the contract is silent:
 * - PUT /social/connections/{provider} connects or replaces: 201 the first time, 200 after.
 * - DELETE answers `{provider, deleted: true}` (a connection has no numeric id); posts already handed
 *   to the provider stay there.
 * - POST /social/accounts/sync for a provider that is not connected, or whose stored key the provider
 *   now refuses, is a 409 conflict: the request is fine, the connection's state is not.
 * - Any other provider trouble is mapped as for posts (#use-cases/provider-errors): down or slow is a
 *   503 upstream_unavailable, throttling a 429, both with Retry-After; never a 500.
 * Provider keys are never echoed, logged or returned; only a short hint of long keys is shown.
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { created, ok } from '#http/respond';
import { logger } from '#functions/logger';
import { badRequest } from '#domain/errors';
import { SOCIAL_PROVIDERS, connectionInput, connectionView, credentialsOf, isProviderName, type ProviderName } from '#domain/social';
import { channelSyncInput } from '#domain/schemas/social';
import { setConnection } from '#use-cases/set-connection';
import { removeConnection } from '#use-cases/remove-connection';
import { syncAccounts as syncAccountsUseCase } from '#use-cases/sync-accounts';


function providerParam(request: AuthenticatedRequest): ProviderName {
  const raw = request.pathParameters.provider;
  if (!isProviderName(raw)) throw badRequest(`Path parameter provider must be one of ${SOCIAL_PROVIDERS.join(', ')}`);
  return raw;
}

async function readFields(request: AuthenticatedRequest): Promise<Record<string, unknown>> {
  const body = await readRouteBody(request);
  return body.fields;
}

const connect: Operation<NeedsOf<typeof setConnection>> = async (request) => {
  const provider = providerParam(request);
  const credentials = credentialsOf(provider, parseInput(connectionInput, await readFields(request), 'connection'));
  if ('refused' in credentials) throw badRequest(`Invalid connection: ${credentials.refused}`);
  const stored = await setConnection({ ...request.deps, log: logger }, { accountId: request.principal.accountId, provider, credentials });
  const view = connectionView(stored.connection);
  return stored.created ? created(view) : ok(view);
};

const disconnect: Operation<NeedsOf<typeof removeConnection>> = async (request) => {
  const provider = providerParam(request);
  await removeConnection({ ...request.deps, log: logger }, { accountId: request.principal.accountId, provider });
  return ok({ provider, deleted: true });
};

const listConnections: Operation<Pick<Ports, 'connections'>> = async (request) => {
  const all = await request.deps.connections.list(request.principal.accountId);
  return ok(all.map(connectionView));
};

const syncAccounts: Operation<NeedsOf<typeof syncAccountsUseCase>> = async (request) => {
  const { provider } = parseInput(channelSyncInput, await readFields(request), 'sync request');
  const synced = await syncAccountsUseCase({ ...request.deps, log: logger }, { accountId: request.principal.accountId, provider });
  const view = connectionView(synced.connection);
  return ok({ provider, status: view.status, channels: view.channels, synced_at: view.synced_at, added: synced.added, removed: synced.removed });
};

export const socialConnectionOperations = { listConnections, connect, disconnect, syncAccounts };
