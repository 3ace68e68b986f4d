/**
 * What every SessionStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same behaviour.
 */
import { newSession, slidSession } from '#domain/session';
import type { SessionStore } from '#ports/session-store';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const later = (s: number) => new Date(NOW.getTime() + s * 1000);

export function sessionStoreContract(store: () => SessionStore): void {
  describe('the session store', () => {
    test('a session is found by its hash, with everything it was created with; an unknown hash finds nothing', async () => {
      const session = newSession(601, 61, NOW);
      await store().create(session.hash, session.record);
      expect(await store().findByHash(session.hash)).toEqual(session.record);
      expect(await store().findByHash(newSession(601, 61, NOW).hash)).toBeUndefined();
    });

    test('a use slides its end; a revoked session is gone and a late use does not bring it back', async () => {
      const session = newSession(602, 62, NOW);
      await store().create(session.hash, session.record);
      const slid = slidSession(session.record, later(3600))!;
      await store().touch(session.hash, slid);
      expect(await store().findByHash(session.hash)).toEqual(slid);
      await store().revoke(session.hash);
      await store().touch(session.hash, slidSession(slid, later(7200))!);
      expect(await store().findByHash(session.hash)).toBeUndefined();
      await store().revoke(session.hash);
    });

    test("revoking a user's other sessions keeps the one named and leaves other users' alone", async () => {
      const [kept, other1, other2] = [newSession(603, 63, NOW), newSession(603, 63, later(1)), newSession(603, 63, later(2))];
      const stranger = newSession(604, 64, NOW);
      for (const s of [kept, other1, other2, stranger]) await store().create(s.hash, s.record);
      expect(await store().revokeOthersOfUser(63, kept.hash)).toBe(2);
      expect(await store().findByHash(kept.hash)).toEqual(kept.record);
      expect(await store().findByHash(other1.hash)).toBeUndefined();
      expect(await store().findByHash(other2.hash)).toBeUndefined();
      expect(await store().findByHash(stranger.hash)).toEqual(stranger.record);
    });
  });
}
