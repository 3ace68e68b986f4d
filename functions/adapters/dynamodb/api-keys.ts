/**
 * API keys. Two items per key: one under the account (for listing) and one under the key's hash (the
 * lookup every request makes). Revocation updates both in one transaction and the lookup is a
 * strongly consistent read, so a revoked key fails on the very next request.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { Scope } from '#functions/routes';
import { generateKeyMaterial } from '#domain/api-keys';
import { GSI1, keys } from './keys';
import { nextId } from './ids';
import { allOfPrefix } from './pagination';

export interface ApiKeyRecord {
  id: number;
  account_id: number;
  prefix: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKey {
  id: number;
  key: string;
  prefix: string;
  scopes: Scope[];
}

/** Writing last_used_at on every request would double the writes for a value read by humans. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function createApiKey(accountId: number, scopes: readonly Scope[], now = new Date()): Promise<CreatedApiKey> {
  const id = await nextId('apikey');
  const material = generateKeyMaterial();
  const record: ApiKeyRecord = {
    id,
    account_id: accountId,
    prefix: material.prefix,
    scopes: [...scopes],
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  // Timestamps not yet set stay absent, so `if_not_exists` can tell "never" from a value.
  const { last_used_at: _never, revoked_at: _notYet, ...stored } = record;
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          ConditionCheck: {
            TableName: config.tableName,
            Key: keys.account(accountId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Put: {
            TableName: config.tableName,
            Item: { ...keys.apiKeyByHash(material.hash), type: 'apikey_lookup', ...stored },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: config.tableName,
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
  return { id, key: material.raw, prefix: material.prefix, scopes: record.scopes };
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.apiKeyByHash(hash), ConsistentRead: true }),
  );
  return out.Item ? toRecord(out.Item) : undefined;
}

export async function listApiKeys(accountId: number): Promise<ApiKeyRecord[]> {
  return (await allOfPrefix(keys.accountPartition(accountId), 'APIKEY#')).map(toRecord);
}

/** Returns false when no such key exists. Revoking twice keeps the first revocation time. */
export async function revokeApiKey(keyId: number, now = new Date()): Promise<boolean> {
  const found = await dynamo().send(
    new QueryCommand({
      TableName: config.tableName,
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
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { TableName: config.tableName, Key: keys.apiKeyByHash(item.hash as string), ...revoke } },
        { Update: { TableName: config.tableName, Key: keys.apiKeyOfAccount(item.account_id as number, keyId), ...revoke } },
      ],
    }),
  );
  return true;
}

export async function touchApiKey(record: ApiKeyRecord, hash: string, now = new Date()): Promise<void> {
  const last = record.last_used_at ? Date.parse(record.last_used_at) : 0;
  if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  const update = {
    UpdateExpression: 'SET last_used_at = :now',
    ExpressionAttributeValues: { ':now': now.toISOString() },
  };
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { TableName: config.tableName, Key: keys.apiKeyByHash(hash), ...update, ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: config.tableName,
            Key: keys.apiKeyOfAccount(record.account_id, record.id),
            ...update,
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
    }),
  );
}

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    prefix: item.prefix as string,
    scopes: (item.scopes as Scope[]) ?? [],
    created_at: item.created_at as string,
    last_used_at: (item.last_used_at as string | null) ?? null,
    revoked_at: (item.revoked_at as string | null) ?? null,
  };
}

