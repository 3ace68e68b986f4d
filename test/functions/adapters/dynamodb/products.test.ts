/**
 * The product store's conditions, held by the DynamoDB store and by the memory double the use-case
 * tests run on: the same suite over both, so the double cannot drift from what it stands in for.
 */
import { DynamoProductStore } from '#adapters/dynamodb/products';
import type { Product } from '#domain/product';
import type { ProductStore } from '#ports/product-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

const T0 = new Date('2026-03-01T10:00:00Z');
const T1 = new Date('2026-03-01T11:00:00Z');
const ORIGINAL = 'accounts/1/products/1/demo-original';

let t: TestTable;
beforeAll(async () => {
  t = await startTestTable();
});
afterAll(() => t?.stop());

let nextAccount = 7000;
const freshAccount = () => nextAccount++;

async function stored(store: ProductStore, accountId: number, demo: Product['demo'] = null): Promise<Product> {
  const id = await store.newProductId();
  const product: Product = { id, account_id: accountId, name: 'Lamp', description: 'bright', demo, created_at: T0.toISOString(), updated_at: T0.toISOString() };
  await store.create(product);
  return product;
}

describe.each([
  ['DynamoProductStore', () => new DynamoProductStore(t.table)],
  ['MemoryProductStore', () => new MemoryProductStore()],
] as const)('%s', (_name, makeStore) => {
  let store: ProductStore;
  beforeEach(() => {
    store = makeStore();
  });

  test('a created product reads back as it was written, and only in its account', async () => {
    const accountId = freshAccount();
    const product = await stored(store, accountId);
    expect(await store.get(accountId, product.id)).toEqual(product);
    expect(await store.get(accountId + 1, product.id)).toBeUndefined();
  });

  test('an update changes the given fields and the time; null clears the description; a missing product is undefined', async () => {
    const accountId = freshAccount();
    const product = await stored(store, accountId);
    expect(await store.update(accountId, product.id, { name: 'Desk Lamp' }, T1)).toEqual({ ...product, name: 'Desk Lamp', updated_at: T1.toISOString() });
    expect(await store.update(accountId, product.id, { description: null }, T1)).toMatchObject({ name: 'Desk Lamp', description: null });
    expect(await store.update(accountId, 999_999, { name: 'x' }, T1)).toBeUndefined();
  });

  test('a delete answers the record once', async () => {
    const accountId = freshAccount();
    const product = await stored(store, accountId);
    expect(await store.delete(accountId, product.id)).toEqual(product);
    expect(await store.delete(accountId, product.id)).toBeUndefined();
    expect(await store.get(accountId, product.id)).toBeUndefined();
  });

  test('lists page newest first with the total', async () => {
    const accountId = freshAccount();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await stored(store, accountId)).id);
    const first = await store.list(accountId, 1, 2);
    expect({ ids: first.items.map((p) => p.id), total: first.total }).toEqual({ ids: [ids[2], ids[1]], total: 3 });
    expect((await store.list(accountId, 2, 2)).items.map((p) => p.id)).toEqual([ids[0]]);
  });

  test('a demo settles only on the upload it was made from, and never on a deleted product', async () => {
    const accountId = freshAccount();
    const product = await stored(store, accountId, { status: 'processing', original_key: ORIGINAL });
    const ready = { status: 'ready' as const, original_key: ORIGINAL, key: 'demo.mp4', duration_s: 3, width: 1080, height: 1920, size_bytes: 10 };
    expect(await store.settleDemo(accountId, product.id, { ...ready, original_key: 'another upload' }, T1)).toBe(false);
    expect(await store.settleDemo(accountId, product.id, ready, T1)).toBe(true);
    expect(await store.get(accountId, product.id)).toMatchObject({ demo: ready, updated_at: T1.toISOString() });
    await store.delete(accountId, product.id);
    expect(await store.settleDemo(accountId, product.id, ready, T1)).toBe(false);
    expect(await store.get(accountId, product.id)).toBeUndefined();
  });

  test('finds the demos still processing that started before a time, oldest first; a settled one is no longer found', async () => {
    const accountId = freshAccount();
    const mine = async (cutoff: Date) => (await store.demosProcessingBefore(cutoff)).filter((p) => p.accountId === accountId).map((p) => p.productId);
    const first = await stored(store, accountId, { status: 'processing', original_key: ORIGINAL });
    const second = await stored(store, accountId, { status: 'processing', original_key: ORIGINAL });
    const ready = await stored(store, accountId, { status: 'ready', original_key: ORIGINAL, key: 'demo.mp4' });
    await stored(store, accountId);
    expect(await mine(T0)).toEqual([]);
    expect(await mine(T1)).toEqual([first.id, second.id]);
    expect(ready.id).toBeGreaterThan(second.id);
    expect(await store.settleDemo(accountId, first.id, { status: 'failed', original_key: ORIGINAL, error: { code: 'processing_timeout', message: 'late' } }, T1)).toBe(true);
    expect(await mine(T1)).toEqual([second.id]);
    await store.delete(accountId, second.id);
    expect(await mine(T1)).toEqual([]);
  });
});
