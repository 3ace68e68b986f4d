/**
 * What every ProductStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions.
 */
import type { DemoVideo, Product } from '#domain/product';
import type { ProductStore } from '#ports/product-store';
import type { WebhookEvent } from '#domain/webhooks';

const T0 = new Date('2026-03-01T10:00:00Z');
const T1 = new Date('2026-03-01T11:00:00Z');
const ORIGINAL = 'accounts/1/products/1/demo-original';
const processing: DemoVideo = { status: 'processing', original_key: ORIGINAL };
const ready: DemoVideo = { status: 'ready', original_key: ORIGINAL, key: 'demo.mp4', duration_s: 3, width: 1080, height: 1920, size_bytes: 10 };
const failed: DemoVideo = { status: 'failed', original_key: ORIGINAL, error: { code: 'invalid_media', message: 'unreadable' } };

const eventOf = (accountId: number, productId: number, type: 'product.demo.ready' | 'product.demo.failed'): WebhookEvent => ({
  id: `evt_${accountId}_${productId}_${type}`,
  account_id: accountId,
  type,
  subject: { kind: 'product', id: productId },
  order_key: `product-${productId}`,
  created_at: T1.toISOString(),
});

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function productStoreContract(store: () => ProductStore, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;

  async function stored(accountId: number, demo: Product['demo'] = null): Promise<Product> {
    const id = await store().newProductId();
    const product: Product = { id, account_id: accountId, name: 'Lamp', description: 'bright', demo, created_at: T0.toISOString(), updated_at: T0.toISOString() };
    await store().create(product);
    return product;
  }

  describe('the product store', () => {
    test('a created product reads back as it was written, and only in its account', async () => {
      const accountId = freshAccount();
      const product = await stored(accountId, ready);
      expect(await store().get(accountId, product.id)).toEqual(product);
      expect(await store().get(accountId + 1, product.id)).toBeUndefined();
    });

    test('how its demo is taken in (reframe, trim) reads back as written, and stays when the demo settles and the product is renamed', async () => {
      const accountId = freshAccount();
      const id = await store().newProductId();
      const demo_intake = { reframe: 'crop' as const, start_s: 1.25, end_s: null };
      const product: Product = { id, account_id: accountId, name: 'Lamp', description: null, demo: processing, demo_intake, created_at: T0.toISOString(), updated_at: T0.toISOString() };
      await store().create(product);
      expect(await store().get(accountId, id)).toEqual(product);
      expect(await store().settleDemo(accountId, id, ready, T1, eventOf(accountId, id, 'product.demo.ready'))).toBe(true);
      expect(await store().update(accountId, id, { name: 'Desk Lamp' }, T1)).toMatchObject({ demo: ready, demo_intake });
      expect((await store().list(accountId, 1, 10)).items).toEqual([{ ...product, name: 'Desk Lamp', demo: ready, updated_at: T1.toISOString() }]);
    });

    test('a product id is created once', async () => {
      const accountId = freshAccount();
      const product = await stored(accountId);
      await expect(store().create({ ...product, name: 'Other' })).rejects.toThrow(/already exists/);
      expect(await store().get(accountId, product.id)).toEqual(product);
    });

    test('an update changes the given fields and the time; null clears the description; a missing product is undefined', async () => {
      const accountId = freshAccount();
      const product = await stored(accountId);
      expect(await store().update(accountId, product.id, { name: 'Desk Lamp' }, T1)).toEqual({ ...product, name: 'Desk Lamp', updated_at: T1.toISOString() });
      expect(await store().update(accountId, product.id, { description: null }, T1)).toMatchObject({ name: 'Desk Lamp', description: null });
      expect(await store().update(accountId, 999_999, { name: 'x' }, T1)).toBeUndefined();
      expect(await store().get(accountId, 999_999)).toBeUndefined();
    });

    test('a delete answers the record once', async () => {
      const accountId = freshAccount();
      const product = await stored(accountId);
      expect(await store().delete(accountId, product.id)).toEqual(product);
      expect(await store().delete(accountId, product.id)).toBeUndefined();
      expect(await store().get(accountId, product.id)).toBeUndefined();
      expect(await store().update(accountId, product.id, { name: 'back' }, T1)).toBeUndefined();
    });

    test('lists page newest first with the total; a page past the end is empty', async () => {
      const accountId = freshAccount();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await stored(accountId)).id);
      const first = await store().list(accountId, 1, 2);
      expect({ ids: first.items.map((p) => p.id), total: first.total }).toEqual({ ids: [ids[2], ids[1]], total: 3 });
      expect((await store().list(accountId, 2, 2)).items.map((p) => p.id)).toEqual([ids[0]]);
      expect(await store().list(accountId, 3, 2)).toEqual({ items: [], total: 3 });
      expect(await store().list(freshAccount(), 1, 2)).toEqual({ items: [], total: 0 });
    });

    test('a demo settles only on the upload it was made from, and never on a deleted product', async () => {
      const accountId = freshAccount();
      const product = await stored(accountId, processing);
      expect(await store().settleDemo(accountId, product.id, { ...ready, original_key: 'another upload' }, T1)).toBe(false);
      expect(await store().settleDemo(accountId, product.id, ready, T1)).toBe(true);
      expect(await store().get(accountId, product.id)).toEqual({ ...product, demo: ready, updated_at: T1.toISOString() });
      await store().delete(accountId, product.id);
      expect(await store().settleDemo(accountId, product.id, ready, T1)).toBe(false);
      expect(await store().get(accountId, product.id)).toBeUndefined();
    });

    test('a settle that raises an event settles a processing demo once: a duplicate, ready or failed, is refused', async () => {
      const accountId = freshAccount();
      const product = await stored(accountId, processing);
      expect(await store().settleDemo(accountId, product.id, ready, T1, eventOf(accountId, product.id, 'product.demo.ready'))).toBe(true);
      expect(await store().settleDemo(accountId, product.id, failed, T1, eventOf(accountId, product.id, 'product.demo.failed'))).toBe(false);
      expect(await store().settleDemo(accountId, product.id, ready, T1, { ...eventOf(accountId, product.id, 'product.demo.ready'), id: 'evt_again' })).toBe(false);
      expect((await store().get(accountId, product.id))!.demo).toEqual(ready);
    });

    test('finds the demos still processing that started before a time, oldest first; a settled or deleted one is no longer found', async () => {
      const accountId = freshAccount();
      const mine = async (cutoff: Date) => (await store().demosProcessingBefore(cutoff)).filter((p) => p.accountId === accountId).map((p) => p.productId);
      const first = await stored(accountId, processing);
      const second = await stored(accountId, processing);
      await stored(accountId, ready);
      await stored(accountId);
      expect(await mine(T0)).toEqual([]);
      expect(await mine(T1)).toEqual([first.id, second.id]);
      expect(await store().settleDemo(accountId, first.id, { ...failed, error: { code: 'processing_timeout', message: 'late' } }, T1)).toBe(true);
      expect(await mine(T1)).toEqual([second.id]);
      await store().delete(accountId, second.id);
      expect(await mine(T1)).toEqual([]);
    });
  });
}
