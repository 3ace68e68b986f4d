/**
 * A creating request sent with an Idempotency-Key runs once: the first one to claim the key runs and
 * its successful answer is recorded; a repeat with the same request gets that answer again
 * (`replayed`); a repeat with another request, or one that arrives while the first still runs, is 409.
 * A failed request records nothing and frees the key, so a retry runs again.
 *
 * Exactly once except across a crash between the work and the recording of its answer: the key then
 * stays claimed until its lease (ANSWER_LEASE_S) runs out, and a retry after that runs again. Money is
 * never behind these routes: video jobs and batches write their key with the job (create-video-job.ts).
 */
import { AppError } from '#domain/errors';
import { ANSWER_KEPT_S, ANSWER_LEASE_S, keyUsedForAnotherRequest, verdictFor } from '#domain/idempotency';
import type { IdempotentAnswerStore, RecordedAnswer } from '#ports/idempotent-answers';

export interface AnswerOnceDeps {
  idempotentAnswers: IdempotentAnswerStore;
  now: () => Date;
}

export interface KeyedRequest {
  accountId: number;
  keyHash: string;
  requestHash: string;
}

const seconds = (from: Date, s: number) => new Date(from.getTime() + s * 1000);
/** Only a success is worth replaying: a refusal is decided again (the request may be fine now). */
const succeeded = (answer: RecordedAnswer) => answer.statusCode >= 200 && answer.statusCode < 300;

export async function answerOnce(
  deps: AnswerOnceDeps,
  request: KeyedRequest,
  run: () => Promise<RecordedAnswer>,
): Promise<{ answer: RecordedAnswer; replayed: boolean }> {
  const { accountId, keyHash, requestHash } = request;
  const now = deps.now();
  const claim = await deps.idempotentAnswers.claim(accountId, keyHash, requestHash, now, seconds(now, ANSWER_LEASE_S));
  const verdict = verdictFor(claim.kind === 'claimed' ? { kind: 'free' } : claim, requestHash);
  if (verdict === 'replay' && claim.kind === 'answered') return { answer: claim.answer, replayed: true };
  if (verdict === 'different_request') throw keyUsedForAnotherRequest('one');
  if (verdict === 'in_progress') {
    throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; retry in a moment', { headers: { 'retry-after': '1' } });
  }
  let answer: RecordedAnswer;
  try {
    answer = await run();
  } catch (error) {
    // The request's own failure is what the caller must see; a key left claimed frees itself at its lease.
    await deps.idempotentAnswers.release(accountId, keyHash, requestHash).catch(() => undefined);
    throw error;
  }
  if (succeeded(answer)) await deps.idempotentAnswers.record(accountId, keyHash, requestHash, answer, seconds(deps.now(), ANSWER_KEPT_S));
  else await deps.idempotentAnswers.release(accountId, keyHash, requestHash);
  return { answer, replayed: false };
}
