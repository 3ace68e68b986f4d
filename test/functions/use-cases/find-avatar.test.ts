/**
 * Stock avatars beside an account's own: listed first, read by id like its own, accepted by video
 * jobs and by the pipeline's input check, outside the plan's cap, never deleted.
 */
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import type { Avatar } from '#domain/avatar';
import { newJob } from '#domain/job-execution';
import { planOf } from '#domain/plans';
import { STOCK_AVATARS } from '#domain/stock-avatars';
import { requireInputs } from '#pipeline/job-context';
import { createAvatar } from '#use-cases/create-avatar';
import { findAvatar, getAvatar, listAvatars } from '#use-cases/find-avatar';
import { requireReadyAvatar } from '#use-cases/job-references';
import { removeAvatar } from '#use-cases/remove-avatar';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryReactionStore } from '#test-doubles/memory/reaction-store';
import { faceFinder } from '#test-doubles/faces';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-12-01T09:00:00Z');
const STOCK_IDS = STOCK_AVATARS.map((s) => s.id);

async function setup() {
  const accounts = new MemoryAccountStore();
  const account = await accounts.create('test', 'free', NOW);
  const avatars = new MemoryAvatarStore();
  const blobs = new MemoryBlobStore();
  let drawn = 0;
  const stockAvatars = new BlobStockAvatars(blobs, async () => (drawn++, Buffer.from('png')));
  const deps = testDependencies({
    accounts,
    avatars,
    blobs,
    stockAvatars,
    products: new MemoryProductStore(),
    reactions: new MemoryReactionStore(),
    avatarImages: { prepare: async () => ({ data: Buffer.from('webp'), extension: 'webp', contentType: 'image/webp', width: 800, height: 800 }) },
    faces: faceFinder(),
    now: () => NOW,
  });
  /** An avatar of the account's own, uploaded (no engine, no budget). */
  const upload = async (accountId = account.id) => (await createAvatar(deps, { accountId, image: { path: '/dev/null' } })).avatar;
  return { deps, accountId: account.id, accounts, avatars, blobs, upload, drawn: () => drawn };
}

const ids = (avatars: Avatar[]) => avatars.map((a) => a.id);

describe('listing avatars', () => {
  test('a brand-new account has the stock avatars, portraits stored, and none of its own', async () => {
    const s = await setup();
    const listed = await listAvatars(s.deps, s.accountId);
    expect(ids(listed)).toEqual(STOCK_IDS);
    expect(listed.every((a) => a.stock && a.status === 'ready' && a.account_id === s.accountId)).toBe(true);
    for (const avatar of listed) expect(await s.blobs.sizeOf(avatar.image_key!)).toBeGreaterThan(0);
    expect(await s.avatars.count(s.accountId)).toBe(0);
  });

  test("stock first in the catalogue's order, then the account's own newest first; portraits are drawn once", async () => {
    const s = await setup();
    const first = await s.upload();
    const second = await s.upload();
    expect(ids(await listAvatars(s.deps, s.accountId))).toEqual([...STOCK_IDS, second.id, first.id]);
    await listAvatars(s.deps, s.accountId);
    expect(s.drawn()).toBe(STOCK_AVATARS.length);
  });

  test("a full account (the plan's cap of its own) still has every stock avatar, and the cap counts only its own", async () => {
    const s = await setup();
    const cap = planOf('free').avatarCap;
    for (let i = 0; i < cap; i++) await s.upload();
    await expect(s.upload()).rejects.toMatchObject({ code: 'avatars_full' });
    const listed = await listAvatars(s.deps, s.accountId);
    expect(listed).toHaveLength(cap + STOCK_AVATARS.length);
    expect(ids(listed.slice(0, STOCK_AVATARS.length))).toEqual(STOCK_IDS);
    expect(await s.avatars.count(s.accountId)).toBe(cap);
  });
});

describe('reading one', () => {
  test('a stock id reads as a stock avatar on every account, its portrait made sure of; an own id as the own avatar; another account\'s is not found', async () => {
    const s = await setup();
    const other = await s.accounts.create('other', 'pro', NOW);
    const mine = await s.upload();
    const stock = await getAvatar(s.deps, other.id, STOCK_IDS[0]!);
    expect(stock).toMatchObject({ id: STOCK_IDS[0], account_id: other.id, stock: true });
    expect(await s.blobs.sizeOf(stock.image_key!)).toBeGreaterThan(0);
    expect(await getAvatar(s.deps, s.accountId, mine.id)).toMatchObject({ id: mine.id });
    await expect(getAvatar(s.deps, other.id, mine.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await findAvatar(s.deps, other.id, mine.id)).toBeUndefined();
  });
});

describe('deleting', () => {
  test('a stock avatar is 409 conflict saying why, on every account, and stays listed', async () => {
    const s = await setup();
    for (const id of STOCK_IDS) {
      await expect(removeAvatar(s.deps, { accountId: s.accountId, avatarId: id })).rejects.toMatchObject({ code: 'conflict', status: 409, message: expect.stringMatching(/stock avatar/) });
    }
    expect(ids(await listAvatars(s.deps, s.accountId))).toEqual(STOCK_IDS);
  });

  test("the account's own is deleted as before", async () => {
    const s = await setup();
    const mine = await s.upload();
    expect(await removeAvatar(s.deps, { accountId: s.accountId, avatarId: mine.id })).toBe(mine.id);
    expect(ids(await listAvatars(s.deps, s.accountId))).toEqual(STOCK_IDS);
  });
});

describe('in video jobs', () => {
  test('a job may name a stock avatar (checked as a ready avatar); an unknown id is still 404 naming avatar_id', async () => {
    const s = await setup();
    await expect(requireReadyAvatar(s.deps, s.accountId, STOCK_IDS[1]!)).resolves.toBeUndefined();
    await expect(requireReadyAvatar(s.deps, s.accountId, 424242)).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/^avatar_id/) });
  });

  test("the pipeline's input check finds the stock avatar a job names, with the rig the engines animate", async () => {
    const s = await setup();
    const product = { id: 1, account_id: s.accountId, name: 'Lamp', description: null, demo: null, created_at: NOW.toISOString(), updated_at: NOW.toISOString() };
    await s.deps.products.create(product);
    const request = {
      productId: 1, method: 'prompt', mode: 'auto', hookText: null, hookPosition: 'top', hookSize: 'medium', hookStyle: 'outline', hookDuration: 'reaction',
      prompt: 'shocked', avatarId: STOCK_IDS[3]!, videoSource: null, referenceUrl: null, reactionId: null, sound: 'auto', musicId: null, voiceLine: null,
    } as const;
    const job = newJob(s.accountId, 1, request, null, 42, NOW);
    const { avatar } = await requireInputs(s.deps, job);
    expect(avatar).toMatchObject({ id: STOCK_IDS[3], stock: true, status: 'ready', rig: { kind: 'illustrated' } });
  });
});
