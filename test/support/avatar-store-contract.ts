/**
 * What every AvatarStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions.
 */
import type { Avatar } from '#domain/avatar';
import type { AvatarStore } from '#ports/avatar-store';

const T0 = new Date('2026-03-01T10:00:00Z');
const T1 = new Date('2026-03-01T11:00:00Z');

const ready = { status: 'ready' as const, image_key: 'image.png', width: 768, height: 1344, engine: 'fal', seed: 5, error: null };
const failed = { status: 'failed' as const, image_key: null, width: null, height: null, engine: null, seed: 5, error: { code: 'engine_failure', message: 'late' } };

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function avatarStoreContract(store: () => AvatarStore, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;

  async function avatarOf(accountId: number, status: Avatar['status'] = 'processing'): Promise<Avatar> {
    const id = await store().newAvatarId();
    return { id, account_id: accountId, source: 'prompt', prompt: 'a chef', status, image_key: null, width: null, height: null, engine: null, seed: 5, error: null, created_at: T0.toISOString(), updated_at: T0.toISOString() };
  }

  describe('the avatar store', () => {
    test('a created avatar reads back as it was written, and only in its account', async () => {
      const accountId = freshAccount();
      const avatar = await avatarOf(accountId);
      await store().create(avatar, 10);
      expect(await store().get(accountId, avatar.id)).toEqual(avatar);
      expect(await store().get(accountId + 1, avatar.id)).toBeUndefined();
      expect(await store().get(accountId, avatar.id + 1000)).toBeUndefined();
    });

    test('ids are never handed out twice', async () => {
      const ids = await Promise.all(Array.from({ length: 10 }, () => store().newAvatarId()));
      expect(new Set(ids).size).toBe(10);
    });

    test('creates up to the cap and refuses past it with avatars_full; a delete makes room', async () => {
      const accountId = freshAccount();
      const first = await avatarOf(accountId);
      await store().create(first, 2);
      await store().create(await avatarOf(accountId), 2);
      await expect(store().create(await avatarOf(accountId), 2)).rejects.toMatchObject({ code: 'avatars_full' });
      expect(await store().count(accountId)).toBe(2);
      expect(await store().delete(accountId, first.id)).toEqual(first);
      expect(await store().delete(accountId, first.id)).toBeUndefined();
      await store().create(await avatarOf(accountId), 2);
      expect(await store().count(accountId)).toBe(2);
    });

    test('concurrent creates never pass the cap', async () => {
      const accountId = freshAccount();
      const avatars = await Promise.all(Array.from({ length: 5 }, () => avatarOf(accountId)));
      const outcomes = await Promise.allSettled(avatars.map((avatar) => store().create(avatar, 2)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
      expect(await store().count(accountId)).toBe(2);
    });

    test('lists the whole set newest first, only its own account', async () => {
      const accountId = freshAccount();
      const a = await avatarOf(accountId);
      const b = await avatarOf(accountId);
      await store().create(a, 10);
      await store().create(b, 10);
      await store().create(await avatarOf(freshAccount()), 10);
      expect((await store().list(accountId)).map((avatar) => avatar.id)).toEqual([b.id, a.id]);
      expect(await store().list(freshAccount())).toEqual([]);
    });

    test('settles a processing avatar once, answered as read back; a settled or deleted one is left alone', async () => {
      const accountId = freshAccount();
      const avatar = await avatarOf(accountId);
      await store().create(avatar, 10);
      const settled = await store().settle(accountId, avatar.id, ready, T1);
      expect(settled).toEqual({ ...avatar, ...ready, updated_at: T1.toISOString() });
      expect(await store().get(accountId, avatar.id)).toEqual(settled);
      expect(await store().settle(accountId, avatar.id, failed, T1)).toBeUndefined();
      expect(await store().get(accountId, avatar.id)).toEqual(settled);

      const gone = await avatarOf(accountId);
      await store().create(gone, 10);
      await store().delete(accountId, gone.id);
      expect(await store().settle(accountId, gone.id, ready, T1)).toBeUndefined();
      expect(await store().get(accountId, gone.id)).toBeUndefined();
    });

    test("an engine's rig is kept with the settled avatar", async () => {
      const accountId = freshAccount();
      const avatar = await avatarOf(accountId);
      await store().create(avatar, 10);
      const rig = { kind: 'illustrated', look: { top: 'shortFlat', skin: 3 } };
      expect(await store().settle(accountId, avatar.id, { ...ready, rig }, T1)).toMatchObject({ rig });
      expect((await store().get(accountId, avatar.id))!.rig).toEqual(rig);
    });

    test('finds the avatars still processing that started before a time, oldest first; a settled or deleted one is no longer found', async () => {
      const accountId = freshAccount();
      const mine = async (cutoff: Date) => (await store().processingBefore(cutoff)).filter((a) => a.accountId === accountId).map((a) => a.avatarId);
      const first = await avatarOf(accountId);
      const second = await avatarOf(accountId);
      const done = await avatarOf(accountId, 'ready');
      for (const avatar of [first, second, done]) await store().create(avatar, 10);
      expect(await mine(T0)).toEqual([]);
      expect(await mine(T1)).toEqual([first.id, second.id]);
      await store().settle(accountId, first.id, { ...failed, error: { code: 'generation_timeout', message: 'late' } }, T1);
      expect(await mine(T1)).toEqual([second.id]);
      await store().delete(accountId, second.id);
      expect(await mine(T1)).toEqual([]);
    });
  });
}
