/**
 * What every ReactionStore (with the LibraryUsage that counts it) must do, run against the DynamoDB
 * store and the in-memory double the unit tests use, so the double keeps the same conditions.
 */
import { AppError } from '#domain/errors';
import { reactionClipKey, type SavedReaction } from '#domain/reaction';
import type { LibraryUsage } from '#ports/library-usage';
import type { ReactionStore } from '#ports/reaction-store';

const SAVED_AT = '2026-03-01T10:00:00.000Z';

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function reactionStoreContract(store: () => ReactionStore, library: () => LibraryUsage, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;

  async function reactionFrom(accountId: number, jobId: number): Promise<SavedReaction> {
    const id = await store().newReactionId();
    return {
      id,
      account_id: accountId,
      job_id: jobId,
      method: 'prompt',
      avatar_id: null,
      prompt: 'shocked by the price',
      clip_key: reactionClipKey(accountId, id),
      duration_s: 4,
      emotion: 'shocked',
      created_at: SAVED_AT,
    };
  }

  describe('the saved-reaction library', () => {
    test("a reaction's face box (where reuse captions keep clear) is stored with it", async () => {
      const accountId = freshAccount();
      const reaction = { ...(await reactionFrom(accountId, 1)), face_box: { x: 300, y: 520, width: 480, height: 410 } };
      expect(await store().saveFromJob(reaction, 3)).toEqual({ created: true });
      expect(await store().get(accountId, reaction.id)).toEqual(reaction);
    });

    test('a saved reaction is stored, found by its job, and counted', async () => {
      const accountId = freshAccount();
      const reaction = await reactionFrom(accountId, 1);
      expect(await store().saveFromJob(reaction, 3)).toEqual({ created: true });
      expect(await store().get(accountId, reaction.id)).toEqual(reaction);
      expect(await store().idForJob(accountId, 1)).toBe(reaction.id);
      expect(await library().count(accountId)).toBe(1);
    });

    test('an empty library counts zero and lists nothing', async () => {
      const accountId = freshAccount();
      expect(await library().count(accountId)).toBe(0);
      expect(await store().list(accountId)).toEqual([]);
      expect(await store().idForJob(accountId, 1)).toBeUndefined();
    });

    test('a job is saved once: a second save answers the first reaction and takes no slot', async () => {
      const accountId = freshAccount();
      const first = await reactionFrom(accountId, 5);
      const second = await reactionFrom(accountId, 5);
      await store().saveFromJob(first, 3);
      expect(await store().saveFromJob(second, 3)).toEqual({ created: false, existingId: first.id });
      expect(await store().get(accountId, second.id)).toBeUndefined();
      expect(await library().count(accountId)).toBe(1);
    });

    test('a repeat save of a saved job is answered even when the library is full', async () => {
      const accountId = freshAccount();
      const first = await reactionFrom(accountId, 1);
      await store().saveFromJob(first, 1);
      expect(await store().saveFromJob(await reactionFrom(accountId, 1), 1)).toEqual({ created: false, existingId: first.id });
    });

    test('concurrent saves of one job make one reaction', async () => {
      const accountId = freshAccount();
      const attempts = await Promise.all(Array.from({ length: 6 }, () => reactionFrom(accountId, 42)));
      const outcomes = await Promise.all(attempts.map((r) => store().saveFromJob(r, 10)));
      const winners = outcomes.filter((o) => o.created);
      expect(winners).toHaveLength(1);
      const winnerId = await store().idForJob(accountId, 42);
      for (const o of outcomes) if (!o.created) expect(o.existingId).toBe(winnerId);
      expect((await store().list(accountId)).map((r) => r.id)).toEqual([winnerId]);
      expect(await library().count(accountId)).toBe(1);
    });

    test('the cap holds under concurrency: 10 parallel saves from different jobs with cap 3 keep exactly 3', async () => {
      const accountId = freshAccount();
      const attempts = await Promise.all(Array.from({ length: 10 }, (_, i) => reactionFrom(accountId, 100 + i)));
      const results = await Promise.allSettled(attempts.map((r) => store().saveFromJob(r, 3)));
      const saved = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(saved).toHaveLength(3);
      expect(refused).toHaveLength(7);
      for (const r of refused) {
        expect(r.reason).toBeInstanceOf(AppError);
        expect(r.reason).toMatchObject({ status: 402, code: 'library_full' });
        expect(r.reason.message).toMatch(/3 of 3/);
        expect(r.reason.message).toMatch(/delete a saved reaction/);
      }
      expect(await store().list(accountId)).toHaveLength(3);
      expect(await library().count(accountId)).toBe(3);
    });

    test('a refused save leaves no reaction and no job marker behind', async () => {
      const accountId = freshAccount();
      await store().saveFromJob(await reactionFrom(accountId, 1), 1);
      const refused = await reactionFrom(accountId, 2);
      await expect(store().saveFromJob(refused, 1)).rejects.toMatchObject({ code: 'library_full' });
      expect(await store().get(accountId, refused.id)).toBeUndefined();
      expect(await store().idForJob(accountId, 2)).toBeUndefined();
    });

    test('deleting a reaction frees its slot and its job, and returns the record', async () => {
      const accountId = freshAccount();
      const kept = await reactionFrom(accountId, 1);
      const dropped = await reactionFrom(accountId, 2);
      await store().saveFromJob(kept, 2);
      await store().saveFromJob(dropped, 2);
      await expect(store().saveFromJob(await reactionFrom(accountId, 3), 2)).rejects.toMatchObject({ code: 'library_full' });

      expect(await store().delete(accountId, dropped.id)).toEqual(dropped);
      expect(await store().get(accountId, dropped.id)).toBeUndefined();
      expect(await store().idForJob(accountId, 2)).toBeUndefined();
      expect(await library().count(accountId)).toBe(1);

      expect(await store().saveFromJob(await reactionFrom(accountId, 3), 2)).toEqual({ created: true });
      // The job a deleted reaction came from can be saved again.
      await store().delete(accountId, kept.id);
      expect(await store().saveFromJob(await reactionFrom(accountId, 1), 2)).toEqual({ created: true });
      expect(await library().count(accountId)).toBe(2);
    });

    test('deleting an unknown reaction, or one twice, changes nothing', async () => {
      const accountId = freshAccount();
      const reaction = await reactionFrom(accountId, 1);
      await store().saveFromJob(reaction, 3);
      expect(await store().delete(accountId, 999_999)).toBeUndefined();
      const outcomes = await Promise.all([store().delete(accountId, reaction.id), store().delete(accountId, reaction.id)]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store().delete(accountId, reaction.id)).toBeUndefined();
      expect(await library().count(accountId)).toBe(0);
    });

    test('another account sees none of it', async () => {
      const owner = freshAccount();
      const stranger = freshAccount();
      const reaction = await reactionFrom(owner, 1);
      await store().saveFromJob(reaction, 3);
      expect(await store().get(stranger, reaction.id)).toBeUndefined();
      expect(await store().idForJob(stranger, 1)).toBeUndefined();
      expect(await store().delete(stranger, reaction.id)).toBeUndefined();
      expect(await library().count(stranger)).toBe(0);
      expect(await library().count(owner)).toBe(1);
    });

    test('the list is the whole library, newest first', async () => {
      const accountId = freshAccount();
      const saved: number[] = [];
      for (let job = 1; job <= 4; job++) {
        const reaction = await reactionFrom(accountId, job);
        await store().saveFromJob(reaction, 10);
        saved.push(reaction.id);
      }
      expect((await store().list(accountId)).map((r) => r.id)).toEqual(saved.reverse());
    });

    test('the counter agrees with the records after a mix of saves, repeats, refusals and deletes', async () => {
      const accountId = freshAccount();
      const jobs = Array.from({ length: 8 }, (_, i) => i + 1);
      await Promise.allSettled(
        [...jobs, ...jobs].map(async (job) => store().saveFromJob(await reactionFrom(accountId, job), 5)),
      );
      const afterSaves = await store().list(accountId);
      expect(afterSaves).toHaveLength(5);
      await Promise.all(afterSaves.slice(0, 2).map((r) => store().delete(accountId, r.id)));
      expect(await library().count(accountId)).toBe((await store().list(accountId)).length);
      expect(await library().count(accountId)).toBe(3);
    });
  });
}
