/**
 * Social provider connections on DynamoDB: one item per (account, provider) in the account's
 * partition, holding the credentials as the credential cipher sealed them, the channels the provider
 * last listed, and the connection's health.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Channel, Connection, ConnectionStatus, ProviderName } from '#domain/social';
import type { SealedSecret } from '#domain/sealed-secret';
import type { ConnectionStore } from '#ports/connection-store';
import { keys } from './keys';
import { queryAll } from './pagination';
import type { DynamoTable } from './table';

export class DynamoConnectionStore implements ConnectionStore {
  constructor(private readonly table: DynamoTable) {}

  async put(connection: Connection): Promise<{ created: boolean }> {
    const out = await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.connection(connection.account_id, connection.provider), type: 'connection', ...connection },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return { created: !out.Attributes };
  }

  async get(accountId: number, provider: ProviderName): Promise<Connection | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.connection(accountId, provider), ConsistentRead: true }),
    );
    return out.Item ? toConnection(out.Item) : undefined;
  }

  async list(accountId: number): Promise<Connection[]> {
    return (await queryAll(this.table, keys.accountPartition(accountId), keys.connectionPrefix)).map(toConnection);
  }

  updateChannels(accountId: number, provider: ProviderName, generation: string, channels: Channel[], now: Date): Promise<Connection | undefined> {
    return this.conditionalUpdate(accountId, provider, generation, 'SET channels = :channels, synced_at = :now, updated_at = :now, #status = :active, last_error = :null', {
      ':channels': channels,
      ':now': now.toISOString(),
      ':active': 'active' satisfies ConnectionStatus,
      ':null': null,
    });
  }

  markError(accountId: number, provider: ProviderName, generation: string, error: { code: string; message: string }, now: Date): Promise<Connection | undefined> {
    const at = now.toISOString();
    return this.conditionalUpdate(accountId, provider, generation, 'SET #status = :error, last_error = :lastError, updated_at = :now', {
      ':error': 'error' satisfies ConnectionStatus,
      ':lastError': { code: error.code, message: error.message, at },
      ':now': at,
    });
  }

  async remove(accountId: number, provider: ProviderName): Promise<Connection | undefined> {
    const out = await this.table.client.send(
      new DeleteCommand({ TableName: this.table.name, Key: keys.connection(accountId, provider), ReturnValues: 'ALL_OLD' }),
    );
    return out.Attributes ? toConnection(out.Attributes) : undefined;
  }

  /** Applies only to the connection the caller read (`generation`): undefined when it was removed or replaced. */
  private async conditionalUpdate(
    accountId: number,
    provider: ProviderName,
    generation: string,
    update: string,
    values: Record<string, unknown>,
  ): Promise<Connection | undefined> {
    try {
      const out = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.connection(accountId, provider),
          UpdateExpression: update,
          ConditionExpression: 'attribute_exists(pk) AND generation = :generation',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ...values, ':generation': generation },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toConnection(out.Attributes!);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}

function toConnection(item: Record<string, unknown>): Connection {
  return {
    account_id: item.account_id as number,
    provider: item.provider as ProviderName,
    status: item.status as ConnectionStatus,
    credentials: item.credentials as SealedSecret,
    key_hint: (item.key_hint as string | null | undefined) ?? null,
    channels: (item.channels as Channel[] | undefined) ?? [],
    connected_at: item.connected_at as string,
    synced_at: item.synced_at as string,
    updated_at: item.updated_at as string,
    last_error: (item.last_error as Connection['last_error'] | undefined) ?? null,
    generation: item.generation as string,
  };
}
