/**
 * API keys. Two items per key: one under the account (for listing) and one under the key's hash (the
 * lookup every request makes). Revocation updates both in one transaction and the lookup is a
 * strongly consistent read, so a revoked key fails on the very next request.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '#functions/routes';
import { generateKeyMaterial, isLastUseStale, newKeyRecord, type ApiKeyRecord, type CreatedApiKey, type KeyMode } from '#domain/api-keys';
import type { ApiKeyStore } from '#ports/api-key-store';
import type { DynamoTable } from './table';
import { GSI1, keys } from './keys';
import { allocateId } from './ids';
import { queryAll } from './pagination';

export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(private readonly table: DynamoTable) {}

  async create(accountId: number, scopes: readonly Scope[], now = new Date(), name?: string, mode: KeyMode = 'live'): Promise<CreatedApiKey> {
    const id = await allocateId(this.table, 'apikey');
    const material = generateKeyMaterial(mode);
    const record = newKeyRecord(id, accountId, material.prefix, scopes, now, name, mode);
    // Timestamps not yet set stay absent, so `if_not_exists` can tell "never" from a value.
    const { last_used_at: _never, revoked_at: _notYet, ...stored } = record;
    const TableName = this.table.name;
    await this.table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName, Key: keys.account(accountId), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Put: {
              TableName,
              Item: { ...keys.apiKeyByHash(material.hash), type: 'apikey_lookup', ...stored },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName,
              Item: {
                ...keys.apiKeyOfAccount(accountId, id),
                gsi1pk: keys.apiKeyIdIndex(id),
                gsi1sk: 'APIKEY',
                type: 'apikey',
                hash: material.hash,
                ...stored,
              },
            },
          },
        ],
      }),
    );
    return { id, key: material.raw, prefix: material.prefix, scopes: record.scopes, mode };
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKeyByHash(hash), ConsistentRead: true }),
    );
    return out.Item ? toRecord(out.Item) : undefined;
  }

  async listOfAccount(accountId: number): Promise<ApiKeyRecord[]> {
    return (await queryAll(this.table, keys.accountPartition(accountId), 'APIKEY#')).map(toRecord);
  }

  async revoke(keyId: number, now = new Date()): Promise<boolean> {
    const TableName = this.table.name;
    const found = await this.table.client.send(
      new QueryCommand({
        TableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :id',
        ExpressionAttributeValues: { ':id': keys.apiKeyIdIndex(keyId) },
      }),
    );
    const item = found.Items?.[0];
    if (!item) return false;
    const revoke = {
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
      ExpressionAttributeValues: { ':now': now.toISOString() },
    };
    await this.table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName, Key: keys.apiKeyByHash(item.hash as string), ...revoke } },
          { Update: { TableName, Key: keys.apiKeyOfAccount(item.account_id as number, keyId), ...revoke } },
        ],
      }),
    );
    return true;
  }

  async recordUse(record: ApiKeyRecord, hash: string, now = new Date()): Promise<void> {
    if (!isLastUseStale(record, now)) return;
    const update = {
      UpdateExpression: 'SET last_used_at = :now',
      ExpressionAttributeValues: { ':now': now.toISOString() },
      ConditionExpression: 'attribute_exists(pk)',
    };
    const TableName = this.table.name;
    await this.table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName, Key: keys.apiKeyByHash(hash), ...update } },
          { Update: { TableName, Key: keys.apiKeyOfAccount(record.account_id, record.id), ...update } },
        ],
      }),
    );
  }
}

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    prefix: item.prefix as string,
    scopes: (item.scopes as Scope[]) ?? [],
    mode: item.mode === 'test' ? 'test' : 'live',
    created_at: item.created_at as string,
    last_used_at: (item.last_used_at as string | null) ?? null,
    revoked_at: (item.revoked_at as string | null) ?? null,
  };
}
