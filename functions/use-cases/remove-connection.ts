/**
 * Disconnecting a provider: the connection and its sealed key go. Posts already handed to the
 * provider stay there, and stay listed here.
 */
import { notFound } from '#domain/errors';
import type { Connection, ProviderName } from '#domain/social';
import type { Ports } from '#ports/ports';
import { logOf, type UseCaseLog } from './log';

export async function removeConnection(
  deps: Pick<Ports, 'connections'> & { log?: UseCaseLog },
  input: { accountId: number; provider: ProviderName },
): Promise<Connection> {
  const removed = await deps.connections.remove(input.accountId, input.provider);
  if (!removed) throw notFound(`Connection to ${input.provider}`);
  logOf(deps).info('social connection removed', { provider: input.provider, accountId: input.accountId });
  return removed;
}
