/**
 * Social connections (DESIGN §5): the account's key for a scheduling provider, checked against the
 * provider before it is stored (sealed), and the channels the provider reaches with it.
 *
 * Decisions where the contract is silent:
 * - PUT /social/connections/{provider} connects or replaces: 201 the first time, 200 after.
 * - DELETE answers `{provider, deleted: true}` (a connection has no numeric id); posts already handed
 *   to the provider stay there.
 * - POST /social/accounts/sync for a provider that is not connected, or whose stored key the provider
 *   now refuses, is a 409 conflict: the request is fine, the connection's state is not. The latter
 *   also marks the connection `error` until the owner connects again.
 * - Any other provider trouble is mapped as for posts (./provider-errors.ts): down or slow is a 503
 *   upstream_unavailable, throttling a 429, both with Retry-After; never a 500.
 * Provider keys are never echoed, logged or returned; only a short hint of long keys is shown.
 */
import * as z from 'zod/mini';
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import { readBody } from '#http/body';
import { parseInput } from '#http/validate';
import { created, ok } from '#http/respond';
import { logger } from '#functions/logger';
import { badRequest, conflict, notFound } from '#domain/errors';
import { channelChanges, connectionInput, connectionView, credentialsOf, isProviderName } from '#domain/social';
import { SOCIAL_PROVIDERS, type Channel, type ProviderCredentials, type ProviderName } from '#domain/social';
import { isProviderError } from '#ports/social-provider';
import { isCredentialCipherError } from '#ports/credential-cipher';
import { socialProvider } from '#adapters/social/registry';
import * as connections from '#adapters/dynamodb/connections';
import { connectFirst, providerFailure, reconnect } from './provider-errors';

/** Leaves room under API Gateway's 30 s for sealing and storing after the provider answers. */
const PROVIDER_CALL_TIMEOUT_MS = 20_000;

const syncInput = z.strictObject({
  provider: z.enum(SOCIAL_PROVIDERS, { error: `must be one of ${SOCIAL_PROVIDERS.join(', ')}` }),
});

function providerParam(request: AuthenticatedRequest): ProviderName {
  const raw = request.pathParameters.provider;
  if (!isProviderName(raw)) throw badRequest(`Path parameter provider must be one of ${SOCIAL_PROVIDERS.join(', ')}`);
  return raw;
}

async function readFields(request: AuthenticatedRequest): Promise<Record<string, unknown>> {
  const body = await readBody(request.event, { accept: ['json', 'form'] });
  return body.fields;
}

const listChannelsOf = (provider: ProviderName, credentials: ProviderCredentials): Promise<Channel[]> =>
  socialProvider(provider).listChannels(credentials, { signal: AbortSignal.timeout(PROVIDER_CALL_TIMEOUT_MS) });

/** Failures that say the key itself is not (or no longer) good for listing channels. */
const KEY_REFUSALS = new Set(['auth', 'rejected', 'not_found']);

const connect: Operation = async (request) => {
  const provider = providerParam(request);
  const credentials = credentialsOf(provider, parseInput(connectionInput, await readFields(request), 'connection'));
  if ('refused' in credentials) throw badRequest(`Invalid connection: ${credentials.refused}`);
  const accountId = request.principal.accountId;

  let channels: Channel[];
  try {
    channels = await listChannelsOf(provider, credentials);
  } catch (error) {
    if (isProviderError(error) && KEY_REFUSALS.has(error.kind)) {
      logger.info('provider refused a key offered for connection', { provider, accountId, kind: error.kind });
      const what = provider === 'provider_a' ? 'API key and profile key' : 'API key';
      throw badRequest(`The provider refused this key (${provider}): check the ${what} and try again`);
    }
    throw providerFailure(error, provider, 'the channel listing');
  }

  const stored = await connections.putConnection({ accountId, provider, credentials, channels });
  logger.info('social connection stored', { provider, accountId, channels: channels.length, replaced: !stored.created });
  const view = connectionView(stored.connection);
  return stored.created ? created(view) : ok(view);
};

const disconnect: Operation = async (request) => {
  const provider = providerParam(request);
  const removed = await connections.deleteConnection(request.principal.accountId, provider);
  if (!removed) throw notFound(`Connection to ${provider}`);
  logger.info('social connection removed', { provider, accountId: request.principal.accountId });
  return ok({ provider, deleted: true });
};

const listConnections: Operation = async (request) => {
  const all = await connections.listConnections(request.principal.accountId);
  return ok(all.map(connectionView));
};

const syncAccounts: Operation = async (request) => {
  const { provider } = parseInput(syncInput, await readFields(request), 'sync request');
  const accountId = request.principal.accountId;

  let opened: connections.OpenedConnection | undefined;
  try {
    opened = await connections.getConnection(accountId, provider, { credentials: true });
  } catch (error) {
    if (!isCredentialCipherError(error)) throw error;
    // Only a record altered at rest (or moved between accounts) gets here: its key is lost to us.
    logger.error('stored provider credentials could not be opened', { provider, accountId, kind: error.kind });
    const stale = await connections.getConnection(accountId, provider);
    if (stale) {
      await connections.markConnectionError(accountId, provider, stale.generation, {
        code: 'credentials_unreadable',
        message: 'The stored key could not be read; connect again',
      });
    }
    throw conflict(`The stored key for ${provider} cannot be read: reconnect it: PUT /social/connections/${provider}`);
  }
  if (!opened) throw connectFirst(provider);
  const { connection, credentials } = opened;

  let channels: Channel[];
  try {
    channels = await listChannelsOf(provider, credentials);
  } catch (error) {
    if (isProviderError(error) && KEY_REFUSALS.has(error.kind)) {
      logger.warn('provider refused the stored key', { provider, accountId, kind: error.kind });
      await connections.markConnectionError(accountId, provider, connection.generation, {
        code: 'provider_refused_key',
        message: reconnect(provider).message,
      });
      throw reconnect(provider);
    }
    throw providerFailure(error, provider, 'the channel listing');
  }

  const updated = await connections.updateChannels(accountId, provider, connection.generation, channels);
  // Disconnected or connected again with another key while we were listing: this listing is stale.
  if (!updated) throw conflict(`The ${provider} connection changed during the sync; try again`);
  const { added, removed } = channelChanges(connection.channels, updated.channels);
  logger.info('social channels synced', { provider, accountId, channels: channels.length, added: added.length, removed: removed.length });
  const view = connectionView(updated);
  return ok({ provider, status: view.status, channels: view.channels, synced_at: view.synced_at, added, removed });
};

export const socialConnectionOperations = { listConnections, connect, disconnect, syncAccounts };
