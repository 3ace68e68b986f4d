/**
 * The answers of creating POSTs sent with an Idempotency-Key, by account and the key's hash: claimed
 * while the request runs, then the answer it gave, kept for ANSWER_KEPT_S (domain/idempotency.ts).
 */

/** An HTTP answer as it was sent, to be sent again. */
export interface RecordedAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

export type AnswerClaim =
  /** The key was free (or its record had expired, or its holder's lease had run out): this request holds it now. */
  | { kind: 'claimed' }
  | { kind: 'answered'; requestHash: string; answer: RecordedAnswer }
  | { kind: 'in_progress'; requestHash: string };

export interface IdempotentAnswerStore {
  /**
   * Takes the key for `requestHash` until `leaseUntil`, unless a live record holds it: then that
   * record. Of concurrent claims of one key exactly one answers `claimed`.
   */
  claim(accountId: number, keyHash: string, requestHash: string, now: Date, leaseUntil: Date): Promise<AnswerClaim>;
  /** The claimed key's answer, kept until `keepUntil`. */
  record(accountId: number, keyHash: string, requestHash: string, answer: RecordedAnswer, keepUntil: Date): Promise<void>;
  /** Frees a key whose request failed (only while it is still in progress for `requestHash`), so a retry runs. */
  release(accountId: number, keyHash: string, requestHash: string): Promise<void>;
}
