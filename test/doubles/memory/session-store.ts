import type { SessionRecord } from '#domain/session';
import type { SessionStore } from '#ports/session-store';

/** Sessions by token hash, as the DynamoDB store keeps them (without TTL: the domain's expiry check decides). */
export class MemorySessionStore implements SessionStore {
  private readonly byHash = new Map<string, SessionRecord>();

  async create(hash: string, record: SessionRecord): Promise<void> {
    if (this.byHash.has(hash)) throw new Error('ConditionalCheckFailed: session exists');
    this.byHash.set(hash, { ...record });
  }

  async findByHash(hash: string): Promise<SessionRecord | undefined> {
    const record = this.byHash.get(hash);
    return record && { ...record };
  }

  async touch(hash: string, record: SessionRecord): Promise<void> {
    const stored = this.byHash.get(hash);
    if (!stored) return;
    stored.last_seen_at = record.last_seen_at;
    stored.expires_at = record.expires_at;
  }

  async revoke(hash: string): Promise<void> {
    this.byHash.delete(hash);
  }

  async revokeOthersOfUser(userId: number, keep: string): Promise<number> {
    const others = [...this.byHash].filter(([hash, record]) => record.user_id === userId && hash !== keep);
    for (const [hash] of others) this.byHash.delete(hash);
    return others.length;
  }
}
