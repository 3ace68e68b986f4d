/**
 * The stock avatars as records and portraits: the same catalogue for every account, each an
 * illustrated person the offline engine animates, its portrait drawn once per stack and found after.
 */
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import { STOCK_AVATARS, STOCK_AVATAR_SIZE } from '#domain/stock-avatars';
import { SAMPLES_PREFIX } from '#domain/sample-product';
import { isIllustratedRig, type IllustratedRig } from '#render';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';

function drawer() {
  const drawn: IllustratedRig[] = [];
  return { drawn, draw: async (rig: IllustratedRig, size: number) => (drawn.push(rig), Buffer.from(`portrait ${size} ${rig.options.seed}`)) };
}

describe('BlobStockAvatars', () => {
  test('lists the catalogue in its order as ready prompt avatars of the asking account, marked stock', () => {
    const stock = new BlobStockAvatars(new MemoryBlobStore());
    const listed = stock.list(7);
    expect(listed.map((a) => a.id)).toEqual(STOCK_AVATARS.map((s) => s.id));
    for (const avatar of listed) {
      expect(avatar).toMatchObject({ account_id: 7, stock: true, source: 'prompt', status: 'ready', width: STOCK_AVATAR_SIZE, height: STOCK_AVATAR_SIZE, engine: 'local', error: null });
      expect(avatar.image_key!.startsWith(`${SAMPLES_PREFIX}avatars/`)).toBe(true);
    }
    expect(new Set(listed.map((a) => a.image_key)).size).toBe(STOCK_AVATARS.length);
  });

  test('every account sees the same people: only account_id differs', () => {
    const stock = new BlobStockAvatars(new MemoryBlobStore());
    expect(stock.list(8)).toEqual(stock.list(7).map((a) => ({ ...a, account_id: 8 })));
  });

  test("each carries an illustrated rig, which the offline engine animates as it does a prompt's avatar; different people look different", () => {
    const rigs = new BlobStockAvatars(new MemoryBlobStore()).list(7).map((a) => a.rig);
    for (const rig of rigs) expect(isIllustratedRig(rig)).toBe(true);
    expect(new Set(rigs.map((rig) => JSON.stringify((rig as IllustratedRig).options))).size).toBe(rigs.length);
  });

  test('get answers a stock id, nothing for any other', () => {
    const stock = new BlobStockAvatars(new MemoryBlobStore());
    expect(stock.get(7, STOCK_AVATARS[2]!.id)).toEqual(stock.list(7)[2]);
    expect(stock.get(7, 1)).toBeUndefined();
    expect(stock.get(7, STOCK_AVATARS.at(-1)!.id + 1)).toBeUndefined();
  });

  test('portraits are drawn once per stack: a second call reads nothing, another instance finds them stored', async () => {
    const blobs = new MemoryBlobStore();
    const first = drawer();
    const stock = new BlobStockAvatars(blobs, first.draw);
    await Promise.all([stock.ensureImages(), stock.ensureImages()]);
    expect(first.drawn).toHaveLength(STOCK_AVATARS.length);
    for (const avatar of stock.list(7)) expect(blobs.objects.get(avatar.image_key!)).toMatchObject({ contentType: 'image/png' });

    const reads = jest.spyOn(blobs, 'sizeOf');
    await stock.ensureImages();
    expect(reads).not.toHaveBeenCalled();

    const other = drawer();
    await new BlobStockAvatars(blobs, other.draw).ensureImages();
    expect(other.drawn).toEqual([]);
  });

  test('where drawing is not bundled, stored portraits are found and a missing one is said to be missing', async () => {
    const blobs = new MemoryBlobStore();
    await expect(new BlobStockAvatars(blobs).ensureImages()).rejects.toThrow(/not bundled/);
    await new BlobStockAvatars(blobs, drawer().draw).ensureImages();
    await expect(new BlobStockAvatars(blobs).ensureImages()).resolves.toBeUndefined();
  });

  test('a failed drawing is tried again on the next call', async () => {
    const blobs = new MemoryBlobStore();
    let fail = true;
    const stock = new BlobStockAvatars(blobs, async () => {
      if (fail) throw new Error('sharp crashed');
      return Buffer.from('png');
    });
    await expect(stock.ensureImages()).rejects.toThrow('sharp crashed');
    fail = false;
    await stock.ensureImages();
    expect(await blobs.listKeys(`${SAMPLES_PREFIX}avatars/`)).toHaveLength(STOCK_AVATARS.length);
  });
});
