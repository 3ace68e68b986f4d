/**
 * API keys, found by the hash of their raw value. A lookup sees a revocation at once (no cache, no
 * eventually consistent read), so a revoked key fails on the very next request.
 */
import type { ApiKeyRecord, CreatedApiKey } from '#domain/api-keys';
import type { KeyMode, Scope } from '#domain/api-keys';

export interface ApiKeyStore {
  /** Throws when the account does not exist. `name` is the studio's label for it; `mode` live unless said. */
  create(accountId: number, scopes: readonly Scope[], now?: Date, name?: string, mode?: KeyMode): Promise<CreatedApiKey>;
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  listOfAccount(accountId: number): Promise<ApiKeyRecord[]>;
  /** False when no such key exists. Revoking twice keeps the first revocation time. */
  revoke(keyId: number, now?: Date): Promise<boolean>;
  /** Records the key's use, at most once a minute (isLastUseStale). */
  recordUse(record: ApiKeyRecord, hash: string, now?: Date): Promise<void>;
}
