/**
 * What every MusicStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions.
 */
import { musicAudioKey, type MusicTrack } from '#domain/music';
import type { MusicStore } from '#ports/music-store';

const AT = '2026-11-25T12:00:00.000Z';

async function newTrack(store: MusicStore, accountId: number, name = 'Summer Mix'): Promise<MusicTrack> {
  const id = await store.newTrackId();
  return { id, account_id: accountId, name, duration_s: 62.5, audio_key: musicAudioKey(accountId, id), size_bytes: 1_000_000, created_at: AT };
}

/** `firstAccount`: the suite uses ten accounts from there, none of which another suite on the same table uses. */
export function musicStoreContract(store: () => MusicStore, firstAccount: number): void {
  const account = (n: number) => firstAccount + n;

  describe('the music store', () => {
    test('a track is read back within its account and not found from another', async () => {
      const track = await newTrack(store(), account(0));
      await store().create(track, 50);
      expect(await store().get(account(0), track.id)).toEqual(track);
      expect(await store().get(account(1), track.id)).toBeUndefined();
      expect(await store().get(account(0), track.id + 1000)).toBeUndefined();
    });

    test('ids are never handed out twice', async () => {
      const ids = await Promise.all(Array.from({ length: 10 }, () => store().newTrackId()));
      expect(new Set(ids).size).toBe(10);
      expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    });

    test('lists the whole set newest first, only its own account', async () => {
      const a = await newTrack(store(), account(2), 'a');
      const b = await newTrack(store(), account(2), 'b');
      await store().create(a, 50);
      await store().create(b, 50);
      await store().create(await newTrack(store(), account(3)), 50);
      expect((await store().list(account(2))).map((t) => t.name)).toEqual(['b', 'a']);
      expect(await store().count(account(2))).toBe(2);
      expect(await store().list(account(4))).toEqual([]);
    });

    test('creates up to the cap and refuses past it with a 409; a delete makes room', async () => {
      const first = await newTrack(store(), account(5));
      await store().create(first, 2);
      await store().create(await newTrack(store(), account(5)), 2);
      await expect(store().create(await newTrack(store(), account(5)), 2)).rejects.toMatchObject({ status: 409, code: 'conflict' });
      expect(await store().count(account(5))).toBe(2);
      expect(await store().delete(account(5), first.id)).toEqual(first);
      expect(await store().delete(account(5), first.id)).toBeUndefined();
      await store().create(await newTrack(store(), account(5)), 2);
      expect(await store().count(account(5))).toBe(2);
    });

    test('concurrent creates never pass the cap', async () => {
      const tracks = await Promise.all(Array.from({ length: 6 }, () => newTrack(store(), account(6))));
      const outcomes = await Promise.allSettled(tracks.map((track) => store().create(track, 3)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ status: 409 });
      expect(await store().count(account(6))).toBe(3);
      expect(await store().list(account(6))).toHaveLength(3);
    });

    test("another account's delete finds nothing and removes nothing", async () => {
      const track = await newTrack(store(), account(7));
      await store().create(track, 50);
      expect(await store().delete(account(8), track.id)).toBeUndefined();
      expect(await store().get(account(7), track.id)).toEqual(track);
    });
  });
}
