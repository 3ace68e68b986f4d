/**
 * The avatar store's conditions, held by the DynamoDB store and by the memory double the use-case
 * tests run on: the same suite over both, so the double cannot drift from what it stands in for.
 */
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import type { Avatar } from '#domain/avatar';
import type { AvatarStore } from '#ports/avatar-store';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

const T0 = new Date('2026-03-01T10:00:00Z');
const T1 = new Date('2026-03-01T11:00:00Z');

let t: TestTable;
beforeAll(async () => {
  t = await startTestTable();
});
afterAll(() => t?.stop());

let nextAccount = 8000;
const freshAccount = () => nextAccount++;

async function avatarOf(store: AvatarStore, accountId: number, status: Avatar['status'] = 'processing'): Promise<Avatar> {
  const id = await store.newAvatarId();
  return { id, account_id: accountId, source: 'prompt', prompt: 'a chef', status, image_key: null, width: null, height: null, engine: null, seed: 5, error: null, created_at: T0.toISOString(), updated_at: T0.toISOString() };
}

const ready = { status: 'ready' as const, image_key: 'image.png', width: 768, height: 1344, engine: 'fal', seed: 5, error: null };

describe.each([
  ['DynamoAvatarStore', () => new DynamoAvatarStore(t.table)],
  ['MemoryAvatarStore', () => new MemoryAvatarStore()],
] as const)('%s', (_name, makeStore) => {
  let store: AvatarStore;
  beforeEach(() => {
    store = makeStore();
  });

  test('creates up to the cap and refuses past it with avatars_full; a delete makes room', async () => {
    const accountId = freshAccount();
    const first = await avatarOf(store, accountId);
    await store.create(first, 2);
    await store.create(await avatarOf(store, accountId), 2);
    await expect(store.create(await avatarOf(store, accountId), 2)).rejects.toMatchObject({ code: 'avatars_full' });
    expect(await store.count(accountId)).toBe(2);
    expect(await store.delete(accountId, first.id)).toEqual(first);
    expect(await store.delete(accountId, first.id)).toBeUndefined();
    await store.create(await avatarOf(store, accountId), 2);
    expect(await store.count(accountId)).toBe(2);
  });

  test('lists the whole set newest first, only its own account', async () => {
    const accountId = freshAccount();
    const a = await avatarOf(store, accountId);
    const b = await avatarOf(store, accountId);
    await store.create(a, 10);
    await store.create(b, 10);
    await store.create(await avatarOf(store, accountId + 100), 10);
    expect((await store.list(accountId)).map((avatar) => avatar.id)).toEqual([b.id, a.id]);
  });

  test('settles a processing avatar once; a settled or deleted one is left alone', async () => {
    const accountId = freshAccount();
    const avatar = await avatarOf(store, accountId);
    await store.create(avatar, 10);
    expect(await store.settle(accountId, avatar.id, ready, T1)).toMatchObject({ ...ready, updated_at: T1.toISOString() });
    expect(await store.settle(accountId, avatar.id, { ...ready, status: 'failed', error: { code: 'engine_failure', message: 'late' } }, T1)).toBeUndefined();
    expect(await store.get(accountId, avatar.id)).toMatchObject({ status: 'ready', error: null });

    const gone = await avatarOf(store, accountId);
    await store.create(gone, 10);
    await store.delete(accountId, gone.id);
    expect(await store.settle(accountId, gone.id, ready, T1)).toBeUndefined();
    expect(await store.get(accountId, gone.id)).toBeUndefined();
  });

  test('finds the avatars still processing that started before a time, oldest first; a settled or deleted one is no longer found', async () => {
    const accountId = freshAccount();
    const mine = async (cutoff: Date) => (await store.processingBefore(cutoff)).filter((a) => a.accountId === accountId).map((a) => a.avatarId);
    const first = await avatarOf(store, accountId);
    const second = await avatarOf(store, accountId);
    const done = await avatarOf(store, accountId, 'ready');
    for (const avatar of [first, second, done]) await store.create(avatar, 10);
    expect(await mine(T0)).toEqual([]);
    expect(await mine(T1)).toEqual([first.id, second.id]);
    await store.settle(accountId, first.id, { ...ready, status: 'failed', error: { code: 'generation_timeout', message: 'late' } }, T1);
    expect(await mine(T1)).toEqual([second.id]);
    await store.delete(accountId, second.id);
    expect(await mine(T1)).toEqual([]);
  });
});
