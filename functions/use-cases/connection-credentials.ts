/**
 * A connection's credentials at rest: sealed by the cipher under the connection's owner (account and
 * provider), so a record copied elsewhere never opens, and opened only by the code about to call the
 * provider. The sealed text is JSON of the fields below, nothing else.
 */
import type { Connection, ProviderCredentials, ProviderName } from '#domain/social';
import { CredentialCipherError, isCredentialCipherError, type CredentialCipher } from '#ports/credential-cipher';
import type { Ports } from '#ports/ports';
import { logOf, type UseCaseLog } from './log';
import { connectFirst, reconnect } from './provider-errors';

const cipherContext = (accountId: number, provider: ProviderName) => ({ accountId, provider });

export function sealCredentials(cipher: CredentialCipher, accountId: number, provider: ProviderName, credentials: ProviderCredentials) {
  return cipher.seal(serialise(credentials), cipherContext(accountId, provider));
}

/** Throws CredentialCipherError when the record was altered or belongs to another owner. */
export async function openCredentials(cipher: CredentialCipher, connection: Connection): Promise<ProviderCredentials> {
  return deserialise(await cipher.open(connection.credentials, cipherContext(connection.account_id, connection.provider)));
}

/** A connection with its credentials opened, for the code that calls the provider. */
export interface OpenedConnection {
  connection: Connection;
  credentials: ProviderCredentials;
}

/** `unopenable`: the sealed record no longer opens (altered at rest, or moved between accounts). */
export type ConnectionAccess =
  | { kind: 'missing' }
  | { kind: 'unopenable'; connection: Connection }
  | ({ kind: 'opened' } & OpenedConnection);

export async function accessConnection(
  deps: Pick<Ports, 'connections' | 'cipher'>,
  accountId: number,
  provider: ProviderName,
): Promise<ConnectionAccess> {
  const connection = await deps.connections.get(accountId, provider);
  if (!connection) return { kind: 'missing' };
  try {
    return { kind: 'opened', connection, credentials: await openCredentials(deps.cipher, connection) };
  } catch (error) {
    if (isCredentialCipherError(error)) return { kind: 'unopenable', connection };
    throw error;
  }
}

/**
 * The connection to call the provider with, or the 409 saying what the owner must do first: connect,
 * or connect again when the provider refused the stored key or the record no longer opens.
 */
export function usableConnection(access: ConnectionAccess, provider: ProviderName): OpenedConnection {
  if (access.kind === 'missing') throw connectFirst(provider);
  if (access.kind === 'unopenable' || access.connection.status === 'error') throw reconnect(provider);
  return access;
}

/**
 * Shows on the connection (status `error`) why its stored key no longer works, until the owner
 * connects again. Only that connection is marked: one replaced meanwhile keeps its state. A failure
 * to mark is logged, not thrown: the caller is already answering with the reason.
 */
export async function markConnectionError(
  deps: Pick<Ports, 'connections' | 'now'> & { log?: UseCaseLog },
  connection: Connection,
  error: { code: string; message: string },
): Promise<void> {
  await deps.connections
    .markError(connection.account_id, connection.provider, connection.generation, error, deps.now())
    .catch((e: unknown) => logOf(deps).error('could not mark the connection', { provider: connection.provider, error: e as Error }));
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
