import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/keys';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { DynamoCollections } from '#adapters/dynamodb/collection-counter';
import { queryAll } from '#adapters/dynamodb/pagination';
import { BLOCK_SIZE } from '#adapters/dynamodb/collection-state';
import { AppError } from '#domain/errors';
import type { Product } from '#domain/product';
import type { Avatar } from '#domain/avatar';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

let t: TestTable;
let products: DynamoProductStore;
let avatars: DynamoAvatarStore;
let collections: DynamoCollections;
beforeAll(async () => {
  t = await startTestTable();
  products = new DynamoProductStore(t.table);
  avatars = new DynamoAvatarStore(t.table);
  collections = new DynamoCollections(t.table);
});
afterAll(() => t?.stop());

const newProductId = () => products.newProductId();
const putNewProduct = (product: Product) => products.create(product);
const listProducts = (accountId: number, page: number, perPage: number) => products.list(accountId, page, perPage);
const deleteProduct = (accountId: number, id: number) => products.delete(accountId, id);

let nextAccount = 5000;
const freshAccount = () => nextAccount++;

function productOf(accountId: number, id: number): Product {
  const now = new Date().toISOString();
  return { id, account_id: accountId, name: `Product ${id}`, description: null, demo: null, created_at: now, updated_at: now };
}

async function createProducts(accountId: number, count: number, concurrency = 4): Promise<number[]> {
  const ids: number[] = [];
  let left = count;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left--;
        const id = await newProductId();
        await putNewProduct(productOf(accountId, id));
        ids.push(id);
      }
    }),
  );
  return ids;
}

/** What the list must show: every product of the account, newest first, read the slow way. */
async function storedIdsNewestFirst(accountId: number): Promise<number[]> {
  return (await queryAll(t.table, keys.accountPartition(accountId), keys.productPrefix, { newestFirst: true })).map((item) => item.id as number);
}

async function everyPage(accountId: number, perPage: number): Promise<{ ids: number[]; totals: number[] }> {
  const ids: number[] = [];
  const totals: number[] = [];
  for (let page = 1; ; page++) {
    const slice = await listProducts(accountId, page, perPage);
    totals.push(slice.total);
    if (slice.items.length === 0) return { ids, totals };
    ids.push(...slice.items.map((p) => p.id));
  }
}

async function expectPagesMatchStore(accountId: number, perPages: number[]) {
  const expected = await storedIdsNewestFirst(accountId);
  for (const perPage of perPages) {
    const { ids, totals } = await everyPage(accountId, perPage);
    expect({ perPage, ids }).toEqual({ perPage, ids: expected });
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  }
}

describe('collection counters and pages', () => {
  test('concurrent creates and deletes keep meta.total exact', async () => {
    const accountId = freshAccount();
    const kept = await createProducts(accountId, 30, 6);
    const doomed = kept.splice(0, 12);
    await Promise.all([
      createProducts(accountId, 30, 6).then((ids) => kept.push(...ids)),
      ...doomed.map((id) => deleteProduct(accountId, id)),
      // A second delete of the same product races the first: only one of them counts.
      ...doomed.slice(0, 4).map((id) => deleteProduct(accountId, id)),
    ]);
    expect((await listProducts(accountId, 1, 20)).total).toBe(kept.length);
    expect((await storedIdsNewestFirst(accountId)).length).toBe(kept.length);
  });

  test('every page shows the store newest first, across block edges and after deletes anywhere', async () => {
    const accountId = freshAccount();
    const ids = await createProducts(accountId, 3 * BLOCK_SIZE + 17);
    const sorted = [...ids].sort((a, b) => a - b);
    // Deletes in the oldest, a middle and the newest block shift every later page.
    for (const id of [sorted[0]!, sorted[3]!, sorted[BLOCK_SIZE + 5]!, sorted[2 * BLOCK_SIZE]!, sorted.at(-1)!, sorted.at(-2)!]) {
      expect(await deleteProduct(accountId, id)).toMatchObject({ id });
    }
    await createProducts(accountId, 9);
    await expectPagesMatchStore(accountId, [1, 7, 20, BLOCK_SIZE, 100]);
  });

  test('a deleted product is deleted once: a second delete finds nothing and counts nothing', async () => {
    const accountId = freshAccount();
    const [id] = await createProducts(accountId, 1);
    expect(await deleteProduct(accountId, id!)).toMatchObject({ id });
    expect(await deleteProduct(accountId, id!)).toBeUndefined();
    expect((await listProducts(accountId, 1, 20)).total).toBe(0);
  });

  test('an id taken before a newer one was stored still lands in a block: pages stay whole', async () => {
    const accountId = freshAccount();
    const late = await newProductId();
    const late2 = await newProductId();
    // Fill the newest block, so the next new id opens another, then write the older ids.
    await createProducts(accountId, BLOCK_SIZE + 3, 1);
    await putNewProduct(productOf(accountId, late2));
    await putNewProduct(productOf(accountId, late));
    await expectPagesMatchStore(accountId, [3, 20]);
    expect((await listProducts(accountId, 1, 1)).total).toBe(BLOCK_SIZE + 5);
  });

  test('products written before counters existed are listed exactly, then counted once on the first create', async () => {
    const accountId = freshAccount();
    for (let i = 0; i < 60; i++) {
      const id = await newProductId();
      await t.table.client.send(new PutCommand({ TableName: t.table.name, Item: { ...keys.product(accountId, id), type: 'product', ...productOf(accountId, id) } }));
    }
    expect((await listProducts(accountId, 2, 25)).total).toBe(60);
    expect((await collections.counter({ accountId, collection: 'products' })).seeded).toBe(false);
    await createProducts(accountId, 1);
    expect(await collections.counter({ accountId, collection: 'products' })).toMatchObject({ seeded: true, count: 61 });
    await expectPagesMatchStore(accountId, [25]);
  });

  test("the operator's recount repairs a counter that went wrong, and pages follow it", async () => {
    const accountId = freshAccount();
    await createProducts(accountId, 70);
    await t.table.client.send(
      new UpdateCommand({
        TableName: t.table.name,
        Key: keys.collectionCounter(accountId, 'products'),
        UpdateExpression: 'SET #count = :wrong',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':wrong': 3 },
      }),
    );
    expect((await collections.count({ accountId, collection: 'products' }, { force: true })).count).toBe(70);
    await expectPagesMatchStore(accountId, [20]);
  });
});

describe('the avatar cap', () => {
  function avatarOf(accountId: number, id: number): Avatar {
    const now = new Date().toISOString();
    return { id, account_id: accountId, source: 'upload', prompt: null, status: 'ready', image_key: null, width: 512, height: 512, engine: null, seed: null, error: null, created_at: now, updated_at: now };
  }

  test('concurrent creates never pass the cap: the rest are 402 avatars_full, and a delete makes room', async () => {
    const accountId = freshAccount();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, async () => avatars.create(avatarOf(accountId, await avatars.newAvatarId()), 3)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
      expect(o.reason).toBeInstanceOf(AppError);
      expect(o.reason).toMatchObject({ status: 402, code: 'avatars_full' });
    }
    expect(await avatars.count(accountId)).toBe(3);
    const [first] = await queryAll(t.table, keys.accountPartition(accountId), keys.avatarPrefix);
    await avatars.delete(accountId, first!.id as number);
    await avatars.create(avatarOf(accountId, await avatars.newAvatarId()), 3);
    expect(await avatars.count(accountId)).toBe(3);
  });
});
