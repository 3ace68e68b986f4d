/**
 * Provider connections: one per (account, provider), holding the credentials sealed (the store never
 * sees them in clear). Updates are conditional on the connection's `generation`, so a slow sync or a
 * late error mark never lands on a connection that was replaced meanwhile.
 */
import type { Channel, Connection, ProviderName } from '#domain/social';

export interface ConnectionStore {
  /** Stores the connection, replacing any earlier one of its provider; `created` tells which. */
  put(connection: Connection): Promise<{ created: boolean }>;
  get(accountId: number, provider: ProviderName): Promise<Connection | undefined>;
  /** Every connection of the account, in provider order. */
  list(accountId: number): Promise<Connection[]>;
  /** A fresh listing, status `active`; undefined when that generation is no longer stored. */
  updateChannels(accountId: number, provider: ProviderName, generation: string, channels: Channel[], now: Date): Promise<Connection | undefined>;
  /** Status `error` with why; undefined when that generation is no longer stored. */
  markError(
    accountId: number,
    provider: ProviderName,
    generation: string,
    error: { code: string; message: string },
    now: Date,
  ): Promise<Connection | undefined>;
  /** The removed connection, or undefined when there was none. */
  remove(accountId: number, provider: ProviderName): Promise<Connection | undefined>;
}
