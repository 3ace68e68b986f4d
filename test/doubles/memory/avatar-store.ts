/** Avatars in memory, with the DynamoDB store's conditions: the cap on create, settle only while processing. */
import type { Avatar } from '#domain/avatar';
import { avatarsFull, type AvatarOutcome, type AvatarStore } from '#ports/avatar-store';

const avatarKey = (accountId: number, avatarId: number) => `${accountId}/${avatarId}`;

export class MemoryAvatarStore implements AvatarStore {
  readonly avatars = new Map<string, Avatar>();
  private lastId = 0;

  async newAvatarId(): Promise<number> {
    return ++this.lastId;
  }

  async create(avatar: Avatar, cap: number): Promise<void> {
    const key = avatarKey(avatar.account_id, avatar.id);
    if (this.avatars.has(key)) throw new Error(`avatars item ${avatar.id} of account ${avatar.account_id} already exists`);
    // Checked and written without yielding, as the DynamoDB transaction is one write: racing creates cannot both pass.
    if (this.countOf(avatar.account_id) >= cap) throw avatarsFull(cap);
    this.avatars.set(key, structuredClone(avatar));
  }

  async count(accountId: number): Promise<number> {
    return this.countOf(accountId);
  }

  private countOf(accountId: number): number {
    return [...this.avatars.values()].filter((a) => a.account_id === accountId).length;
  }

  async processingBefore(cutoff: Date): Promise<{ accountId: number; avatarId: number }[]> {
    return [...this.avatars.values()]
      .filter((a) => a.status === 'processing' && a.created_at < cutoff.toISOString())
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.account_id - b.account_id || a.id - b.id)
      .map((a) => ({ accountId: a.account_id, avatarId: a.id }));
  }

  async get(accountId: number, avatarId: number): Promise<Avatar | undefined> {
    const avatar = this.avatars.get(avatarKey(accountId, avatarId));
    return avatar && structuredClone(avatar);
  }

  async list(accountId: number): Promise<Avatar[]> {
    return [...this.avatars.values()].filter((a) => a.account_id === accountId).sort((a, b) => b.id - a.id).map((a) => structuredClone(a));
  }

  async delete(accountId: number, avatarId: number): Promise<Avatar | undefined> {
    const key = avatarKey(accountId, avatarId);
    const avatar = this.avatars.get(key);
    this.avatars.delete(key);
    return avatar;
  }

  async settle(accountId: number, avatarId: number, outcome: AvatarOutcome, now: Date): Promise<Avatar | undefined> {
    const avatar = this.avatars.get(avatarKey(accountId, avatarId));
    if (!avatar || avatar.status !== 'processing') return undefined;
    // DynamoDB stores a missing rig as null and reads it back as absent.
    Object.assign(avatar, structuredClone({ ...outcome, rig: outcome.rig ?? undefined }), { updated_at: now.toISOString() });
    return structuredClone(avatar);
  }
}
