/**
 * A create repeated with its Idempotency-Key (POST /videos, POST /videos/batch): the same request is
 * answered with what the earlier one made; the key with another request is 409; a twin sent at once
 * that has not written what it made yet is 409 with Retry-After; what it made and is gone since is 404.
 */
import { notFound } from '#domain/errors';
import { keyInProgress, keyUsedForAnotherRequest } from '#domain/idempotency';
import type { IdempotencyClaim } from '#ports/job-store';

/** Where a create's keys and what they made are read. */
export interface KeyedCreations<Earlier extends { request_hash: string }, Made> {
  /** What a new request makes, as the 409 names it ("video", "batch"). */
  what: string;
  /** What the 404 says is not found ("Job", "Batch"). */
  notFoundName: string;
  /** The key's record; undefined for a key not seen (or past its day at `now`). */
  earlier(keyHash: string, now: Date): Promise<Earlier | undefined>;
  made(earlier: Earlier): Promise<Made | undefined>;
}

/** What the earlier request with this key made, when this one is the same request. */
async function sameRequestAnswer<Earlier extends { request_hash: string }, Made>(
  creations: KeyedCreations<Earlier, Made>,
  earlier: Earlier,
  requestHash: string,
): Promise<Made> {
  if (earlier.request_hash !== requestHash) throw keyUsedForAnotherRequest(creations.what);
  const made = await creations.made(earlier);
  if (!made) throw notFound(creations.notFoundName);
  return made;
}

/** What an earlier request with the claim's key made, answered again; undefined when the key is new. */
export async function repeatOf<Earlier extends { request_hash: string }, Made>(
  creations: KeyedCreations<Earlier, Made>,
  claim: IdempotencyClaim,
  now: Date,
): Promise<Made | undefined> {
  const earlier = await creations.earlier(claim.keyHash, now);
  return earlier ? sameRequestAnswer(creations, earlier, claim.requestHash) : undefined;
}

/** What a twin sent at once with the same key made, once it has written it. */
export async function concurrentRequestAnswer<Earlier extends { request_hash: string }, Made>(
  creations: KeyedCreations<Earlier, Made>,
  claim: IdempotencyClaim,
  now: Date,
): Promise<Made> {
  const earlier = await creations.earlier(claim.keyHash, now);
  if (!earlier) throw keyInProgress();
  return sameRequestAnswer(creations, earlier, claim.requestHash);
}
