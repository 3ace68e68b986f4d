/**
 * Idempotency-Key: what a key looks like and how long what it names is kept. A POST that creates
 * something, sent again with the key of an earlier one, gets the earlier answer instead of a second
 * record (docs/decisions.md, Idempotency).
 */
import { AppError, conflict } from './errors';

/** 1-255 visible ASCII characters; a UUID is the usual choice. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = 'Idempotency-Key must be 1-255 visible ASCII characters (a UUID is a good choice)';

/** How long a key names its answer: a day, like the job's keys. */
export const ANSWER_KEPT_S = 24 * 60 * 60;

/**
 * How long a request holds its key before finishing: past it, a request that died between its work
 * and recording its answer no longer blocks the key, and a retry runs again. Longer than any API
 * request may take (API Gateway gives up at 30 s).
 */
export const ANSWER_LEASE_S = 60;

/** 409: the key came before with another request; `what` is what a new request makes ("video", "batch"). */
export const keyUsedForAnotherRequest = (what: string): AppError =>
  conflict(`This Idempotency-Key was already used with a different request; use a new key for a new ${what}`);

/** 409 with Retry-After: the request that holds the key has not written what it made yet. */
export const keyInProgress = (): AppError =>
  new AppError('conflict', 'A request with this Idempotency-Key is in progress; retry in a moment', { headers: { 'retry-after': '1' } });

/** What the key's record says when a request comes with it. */
export type KeyState =
  | { kind: 'free' }
  | { kind: 'answered'; requestHash: string }
  | { kind: 'in_progress'; requestHash: string };

/** What the request does with its key: run, replay the recorded answer, or be refused (and why). */
export type KeyVerdict = 'run' | 'replay' | 'different_request' | 'in_progress';

export function verdictFor(state: KeyState, requestHash: string): KeyVerdict {
  if (state.kind === 'free') return 'run';
  if (state.requestHash !== requestHash) return 'different_request';
  return state.kind === 'answered' ? 'replay' : 'in_progress';
}
