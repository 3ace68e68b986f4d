/**
 * Refreshing a connection's channels from its provider (POST /social/accounts/sync). Not connected,
 * a stored key the provider now refuses, or one that no longer opens, is a 409: the request is fine,
 * the connection's state is not; the latter two also mark the connection `error` until the owner
 * connects again. A successful listing heals an errored connection.
 */
import { conflict } from '#domain/errors';
import { channelChanges, type Connection, type ProviderName } from '#domain/social';
import type { Ports } from '#ports/ports';
import { accessConnection, markConnectionError } from './connection-credentials';
import { logOf, type UseCaseLog } from './log';
import { connectFirst, reconnect } from './provider-errors';
import { channelsOfKey } from './set-connection';

export interface AccountsSynced {
  connection: Connection;
  /** Channel ids that appeared and disappeared since the last listing. */
  added: string[];
  removed: string[];
}

export async function syncAccounts(
  deps: Pick<Ports, 'social' | 'connections' | 'cipher' | 'now'> & { log?: UseCaseLog },
  input: { accountId: number; provider: ProviderName },
): Promise<AccountsSynced> {
  const { accountId, provider } = input;
  const log = logOf(deps);
  const access = await accessConnection(deps, accountId, provider);
  if (access.kind === 'missing') throw connectFirst(provider);
  if (access.kind === 'unopenable') {
    // Only a record altered at rest (or moved between accounts) gets here: its key is lost to us.
    log.error('stored provider credentials could not be opened', { provider, accountId });
    await markConnectionError(deps, access.connection, { code: 'credentials_unreadable', message: 'The stored key could not be read; connect again' });
    throw conflict(`The stored key for ${provider} cannot be read: reconnect it: PUT /social/connections/${provider}`);
  }
  const { connection, credentials } = access;

  const channels = await channelsOfKey(deps.social, { accountId, provider, credentials }, async (refusal) => {
    log.warn('provider refused the stored key', { provider, accountId, kind: refusal.kind });
    await markConnectionError(deps, connection, { code: 'provider_refused_key', message: reconnect(provider).message });
    throw reconnect(provider);
  });

  const updated = await deps.connections.updateChannels(accountId, provider, connection.generation, channels, deps.now());
  // Disconnected or connected again with another key while we were listing: this listing is stale.
  if (!updated) throw conflict(`The ${provider} connection changed during the sync; try again`);
  const { added, removed } = channelChanges(connection.channels, updated.channels);
  log.info('social channels synced', { provider, accountId, channels: channels.length, added: added.length, removed: removed.length });
  return { connection: updated, added, removed };
}
