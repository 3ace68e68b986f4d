import { generateKeyMaterial, isLastUseStale, newKeyRecord, type ApiKeyRecord, type CreatedApiKey, type KeyMode } from '#domain/api-keys';
import type { Scope } from '#functions/routes';
import type { AccountStore } from '#ports/account-store';
import type { ApiKeyStore } from '#ports/api-key-store';

/** Keys by hash, as the DynamoDB store keeps them; creating one for an unknown account fails as its condition does. */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private lastId = 0;
  /** Each recordUse that wrote, for tests of the once-a-minute rule. */
  readonly uses: { keyId: number; at: string }[] = [];

  constructor(private readonly accounts: AccountStore) {}

  async create(accountId: number, scopes: readonly Scope[], now = new Date(), name?: string, mode: KeyMode = 'live'): Promise<CreatedApiKey> {
    if (!(await this.accounts.get(accountId))) throw new Error(`account ${accountId} does not exist`);
    const material = generateKeyMaterial(mode);
    const record = newKeyRecord(++this.lastId, accountId, material.prefix, scopes, now, name, mode);
    this.byHash.set(material.hash, record);
    return { id: record.id, key: material.raw, prefix: record.prefix, scopes: [...record.scopes], mode };
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const record = this.byHash.get(hash);
    return record && { ...record, scopes: [...record.scopes] };
  }

  async listOfAccount(accountId: number): Promise<ApiKeyRecord[]> {
    return [...this.byHash.values()].filter((r) => r.account_id === accountId).sort((a, b) => a.id - b.id).map((r) => ({ ...r }));
  }

  async revoke(keyId: number, now = new Date()): Promise<boolean> {
    const record = [...this.byHash.values()].find((r) => r.id === keyId);
    if (!record) return false;
    record.revoked_at ??= now.toISOString();
    return true;
  }

  async recordUse(record: ApiKeyRecord, hash: string, now = new Date()): Promise<void> {
    if (!isLastUseStale(record, now)) return;
    const stored = this.byHash.get(hash);
    if (!stored) throw new Error('ConditionalCheckFailed: the key is gone');
    stored.last_used_at = now.toISOString();
    this.uses.push({ keyId: stored.id, at: stored.last_used_at });
  }
}
