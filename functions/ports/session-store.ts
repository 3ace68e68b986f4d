/**
 * Studio sessions, found by the hash of their cookie token with a strongly consistent read, so a
 * revoked session fails on the very next request. Expired ones are removed by the table's TTL; until
 * then the domain's expiry check refuses them.
 */
import type { SessionRecord } from '#domain/session';

export interface SessionStore {
  create(hash: string, record: SessionRecord): Promise<void>;
  findByHash(hash: string): Promise<SessionRecord | undefined>;
  /** Records a use (domain/session slidSession); a session revoked meanwhile stays revoked. */
  touch(hash: string, record: SessionRecord): Promise<void>;
  /** Removing an unknown session changes nothing. */
  revoke(hash: string): Promise<void>;
  /** Revokes every session of the user but the one whose hash is `keep`; answers how many went. */
  revokeOthersOfUser(userId: number, keep: string): Promise<number>;
}
