/**
 * Social provider connections: one item per (account, provider) in the account's partition, holding
 * the provider credentials sealed by the credential cipher (never stored or returned in clear), the
 * channels the provider last listed, and the connection's health.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { credentialCipher } from '#adapters/crypto/credential-cipher';
import { CredentialCipherError, type CredentialCipher } from '#ports/credential-cipher';
import type { SealedSecret } from '#domain/sealed-secret';
import type { Channel, ProviderCredentials, ProviderName } from '#domain/social';
import { keyHint, type Connection, type ConnectionStatus } from '#domain/social';
import { keys } from './keys';
import { allOfPrefix } from './pagination';

export interface NewConnection {
  accountId: number;
  provider: ProviderName;
  credentials: ProviderCredentials;
  /** As the provider listed them when the key was checked. */
  channels: Channel[];
}

/** A connection with its credentials opened, for the code that calls the provider. */
export interface OpenedConnection {
  connection: Connection;
  credentials: ProviderCredentials;
}

const cipherContext = (accountId: number, provider: ProviderName) => ({ accountId, provider });

/**
 * Seals the credentials and stores the connection, replacing any earlier one of that provider.
 * `created` tells a first connection from a replaced one (201 / 200), race-free.
 */
export async function putConnection(
  input: NewConnection,
  options: { now?: Date; cipher?: CredentialCipher } = {},
): Promise<{ connection: Connection; created: boolean }> {
  const now = (options.now ?? new Date()).toISOString();
  const cipher = options.cipher ?? credentialCipher();
  const sealed = await cipher.seal(serialise(input.credentials), cipherContext(input.accountId, input.provider));
  const connection: Connection = {
    account_id: input.accountId,
    provider: input.provider,
    status: 'active',
    credentials: sealed,
    key_hint: keyHint(input.credentials.apiKey),
    channels: input.channels,
    connected_at: now,
    synced_at: now,
    updated_at: now,
    last_error: null,
    generation: randomUUID(),
  };
  const out = await dynamo().send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...keys.connection(input.accountId, input.provider), type: 'connection', ...connection },
      ReturnValues: 'ALL_OLD',
    }),
  );
  return { connection, created: !out.Attributes };
}

/**
 * The connection without its credentials, or, with `{ credentials: true }`, together with them opened
 * (throws CredentialCipherError when the stored record cannot be opened: the owner must reconnect).
 */
export async function getConnection(accountId: number, provider: ProviderName): Promise<Connection | undefined>;
export async function getConnection(
  accountId: number,
  provider: ProviderName,
  options: { credentials: true; cipher?: CredentialCipher },
): Promise<OpenedConnection | undefined>;
export async function getConnection(
  accountId: number,
  provider: ProviderName,
  options?: { credentials: true; cipher?: CredentialCipher },
): Promise<Connection | OpenedConnection | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.connection(accountId, provider), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const connection = toConnection(out.Item);
  if (!options?.credentials) return connection;
  return { connection, credentials: await openCredentials(connection, options.cipher) };
}

/** Opens a connection's sealed credentials (bound to its account and provider). */
export async function openCredentials(connection: Connection, cipher: CredentialCipher = credentialCipher()): Promise<ProviderCredentials> {
  const plaintext = await cipher.open(connection.credentials, cipherContext(connection.account_id, connection.provider));
  return deserialise(plaintext);
}

/** Every connection of the account, in provider order. */
export async function listConnections(accountId: number): Promise<Connection[]> {
  return (await allOfPrefix(keys.accountPartition(accountId), keys.connectionPrefix)).map(toConnection);
}

/**
 * Stores a fresh channel listing and marks the connection healthy, but only if it is still the
 * connection the listing was made with (`generation`): undefined when it was removed or replaced.
 */
export async function updateChannels(
  accountId: number,
  provider: ProviderName,
  generation: string,
  channels: Channel[],
  now = new Date(),
): Promise<Connection | undefined> {
  return conditionalUpdate(accountId, provider, generation, 'SET channels = :channels, synced_at = :now, updated_at = :now, #status = :active, last_error = :null', {
    ':channels': channels,
    ':now': now.toISOString(),
    ':active': 'active' satisfies ConnectionStatus,
    ':null': null,
  });
}

/** Records that the provider refused the stored key (status `error`), on that same connection only. */
export async function markConnectionError(
  accountId: number,
  provider: ProviderName,
  generation: string,
  error: { code: string; message: string },
  now = new Date(),
): Promise<Connection | undefined> {
  const at = now.toISOString();
  return conditionalUpdate(accountId, provider, generation, 'SET #status = :error, last_error = :lastError, updated_at = :now', {
    ':error': 'error' satisfies ConnectionStatus,
    ':lastError': { code: error.code, message: error.message, at },
    ':now': at,
  });
}

/** Removes the connection; returns what was removed, or undefined when there was none. */
export async function deleteConnection(accountId: number, provider: ProviderName): Promise<Connection | undefined> {
  const out = await dynamo().send(
    new DeleteCommand({ TableName: config.tableName, Key: keys.connection(accountId, provider), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes ? toConnection(out.Attributes) : undefined;
}

async function conditionalUpdate(
  accountId: number,
  provider: ProviderName,
  generation: string,
  update: string,
  values: Record<string, unknown>,
): Promise<Connection | undefined> {
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
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

function serialise(credentials: ProviderCredentials): string {
  const { apiKey, profileKey, xApp } = credentials;
  return JSON.stringify({ apiKey, ...(profileKey ? { profileKey } : {}), ...(xApp ? { xApp: { apiKey: xApp.apiKey, apiSecret: xApp.apiSecret } } : {}) });
}

const isXApp = (value: unknown): value is { apiKey: string; apiSecret: string } =>
  typeof value === 'object' && value !== null && typeof (value as { apiKey?: unknown }).apiKey === 'string' && typeof (value as { apiSecret?: unknown }).apiSecret === 'string';

function deserialise(plaintext: string): ProviderCredentials {
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    throw new CredentialCipherError('malformed', 'opened credentials are not JSON');
  }
  const record = value as Partial<ProviderCredentials> | null;
  if (
    !record ||
    typeof record.apiKey !== 'string' ||
    (record.profileKey !== undefined && typeof record.profileKey !== 'string') ||
    (record.xApp !== undefined && !isXApp(record.xApp))
  ) {
    throw new CredentialCipherError('malformed', 'opened credentials have an unexpected shape');
  }
  const credentials: ProviderCredentials = { apiKey: record.apiKey };
  if (record.profileKey) credentials.profileKey = record.profileKey;
  if (record.xApp) credentials.xApp = { apiKey: record.xApp.apiKey, apiSecret: record.xApp.apiSecret };
  return credentials;
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
