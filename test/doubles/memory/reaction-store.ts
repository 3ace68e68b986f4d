/**
 * The saved-reaction library in memory, with the DynamoDB store's conditions: a job is saved once
 * (its marker wins over the cap), the cap counts the library, a delete frees the job. It is also the
 * library's usage, read from the same count, as the DynamoDB counter is.
 */
import type { SavedReaction } from '#domain/reaction';
import type { LibraryUsage } from '#ports/library-usage';
import { libraryFull, type ReactionStore, type SaveOutcome } from '#ports/reaction-store';

const reactionKey = (accountId: number, id: number) => `${accountId}/${id}`;

export class MemoryReactionStore implements ReactionStore, LibraryUsage {
  readonly reactions = new Map<string, SavedReaction>();
  private readonly byJob = new Map<string, number>();
  private lastId = 0;

  async newReactionId(): Promise<number> {
    return ++this.lastId;
  }

  async saveFromJob(reaction: SavedReaction, cap: number): Promise<SaveOutcome> {
    const jobKey = reactionKey(reaction.account_id, reaction.job_id);
    const existingId = this.byJob.get(jobKey);
    if (existingId !== undefined) return existingId === reaction.id ? { created: true } : { created: false, existingId };
    // Checked and written without yielding, as the DynamoDB transaction is one write: racing saves cannot both pass.
    if (this.countOf(reaction.account_id) >= cap) throw libraryFull(cap);
    this.reactions.set(reactionKey(reaction.account_id, reaction.id), structuredClone(reaction));
    this.byJob.set(jobKey, reaction.id);
    return { created: true };
  }

  async get(accountId: number, reactionId: number): Promise<SavedReaction | undefined> {
    const reaction = this.reactions.get(reactionKey(accountId, reactionId));
    return reaction && structuredClone(reaction);
  }

  async list(accountId: number): Promise<SavedReaction[]> {
    return [...this.reactions.values()].filter((r) => r.account_id === accountId).sort((a, b) => b.id - a.id).map((r) => structuredClone(r));
  }

  async idForJob(accountId: number, jobId: number): Promise<number | undefined> {
    return this.byJob.get(reactionKey(accountId, jobId));
  }

  async delete(accountId: number, reactionId: number): Promise<SavedReaction | undefined> {
    const key = reactionKey(accountId, reactionId);
    const reaction = this.reactions.get(key);
    if (!reaction) return undefined;
    this.reactions.delete(key);
    this.byJob.delete(reactionKey(accountId, reaction.job_id));
    return reaction;
  }

  async count(accountId: number): Promise<number> {
    return this.countOf(accountId);
  }

  private countOf(accountId: number): number {
    return [...this.reactions.values()].filter((r) => r.account_id === accountId).length;
  }
}
