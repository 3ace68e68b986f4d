/** Idempotency-Key answers in memory, with the DynamoDB store's rules (the shared contract test holds both to them). */
import type { AnswerClaim, IdempotentAnswerStore, RecordedAnswer } from '#ports/idempotent-answers';

interface Entry {
  requestHash: string;
  answer?: RecordedAnswer;
  /** The lease while in progress, then the answer's keeping. */
  keepUntil: number;
}

export class MemoryIdempotentAnswers implements IdempotentAnswerStore {
  private readonly entries = new Map<string, Entry>();

  async claim(accountId: number, keyHash: string, requestHash: string, now: Date, leaseUntil: Date): Promise<AnswerClaim> {
    const key = `${accountId}/${keyHash}`;
    const found = this.entries.get(key);
    if (found && found.keepUntil >= now.getTime()) {
      return found.answer ? { kind: 'answered', requestHash: found.requestHash, answer: structuredClone(found.answer) } : { kind: 'in_progress', requestHash: found.requestHash };
    }
    this.entries.set(key, { requestHash, keepUntil: leaseUntil.getTime() });
    return { kind: 'claimed' };
  }

  async record(accountId: number, keyHash: string, requestHash: string, answer: RecordedAnswer, keepUntil: Date): Promise<void> {
    const found = this.entries.get(`${accountId}/${keyHash}`);
    if (!found || found.requestHash !== requestHash || found.answer) return;
    Object.assign(found, { answer: structuredClone(answer), keepUntil: keepUntil.getTime() });
  }

  async release(accountId: number, keyHash: string, requestHash: string): Promise<void> {
    const key = `${accountId}/${keyHash}`;
    const found = this.entries.get(key);
    if (found && found.requestHash === requestHash && !found.answer) this.entries.delete(key);
  }
}
