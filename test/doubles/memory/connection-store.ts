/** Provider connections in memory, with the DynamoDB store's conditions (updates apply to the generation read only). */
import type { Channel, Connection, ProviderName } from '#domain/social';
import type { ConnectionStore } from '#ports/connection-store';

const connectionKey = (accountId: number, provider: ProviderName) => `${accountId}/${provider}`;

export class MemoryConnectionStore implements ConnectionStore {
  readonly connections = new Map<string, Connection>();

  async put(connection: Connection): Promise<{ created: boolean }> {
    const key = connectionKey(connection.account_id, connection.provider);
    const created = !this.connections.has(key);
    this.connections.set(key, structuredClone(connection));
    return { created };
  }

  async get(accountId: number, provider: ProviderName): Promise<Connection | undefined> {
    const connection = this.connections.get(connectionKey(accountId, provider));
    return connection && structuredClone(connection);
  }

  async list(accountId: number): Promise<Connection[]> {
    return [...this.connections.values()]
      .filter((c) => c.account_id === accountId)
      .sort((a, b) => a.provider.localeCompare(b.provider))
      .map((c) => structuredClone(c));
  }

  async updateChannels(accountId: number, provider: ProviderName, generation: string, channels: Channel[], now: Date): Promise<Connection | undefined> {
    return this.update(accountId, provider, generation, (c) => {
      Object.assign(c, { channels: structuredClone(channels), synced_at: now.toISOString(), updated_at: now.toISOString(), status: 'active', last_error: null });
    });
  }

  async markError(accountId: number, provider: ProviderName, generation: string, error: { code: string; message: string }, now: Date): Promise<Connection | undefined> {
    return this.update(accountId, provider, generation, (c) => {
      Object.assign(c, { status: 'error', last_error: { code: error.code, message: error.message, at: now.toISOString() }, updated_at: now.toISOString() });
    });
  }

  async remove(accountId: number, provider: ProviderName): Promise<Connection | undefined> {
    const key = connectionKey(accountId, provider);
    const connection = this.connections.get(key);
    this.connections.delete(key);
    return connection;
  }

  private update(accountId: number, provider: ProviderName, generation: string, change: (c: Connection) => void): Connection | undefined {
    const connection = this.connections.get(connectionKey(accountId, provider));
    if (!connection || connection.generation !== generation) return undefined;
    change(connection);
    return structuredClone(connection);
  }
}
