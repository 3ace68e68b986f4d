/**
 * A demo's normalisation can run twice for one upload (an asynchronous invocation is delivered at least
 * once, and a worker that timed out is retried while the first may still finish). The canonical file
 * has one key per product, so the settle that loses must leave the winner's file alone: on the
 * DynamoDB store and on the memory double the use-case tests run on.
 */
import { writeFile } from 'node:fs/promises';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { demoCanonicalKey, demoOriginalKey, type Product } from '#domain/product';
import type { DemoMedia } from '#ports/demo-media';
import type { ProductStore } from '#ports/product-store';
import { settleDemo } from '#use-cases/settle-demo';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-03-01T10:00:00Z');

let t: TestTable;
beforeAll(async () => {
  t = await startTestTable();
});
afterAll(() => t?.stop());

let nextAccount = 7500;

const writesCanonical: DemoMedia['normalise'] = async (_input, output) => {
  await writeFile(output, 'canonical');
  return { encoding: 'canonical-v1', durationS: 12.5, width: 1080, height: 1920, sizeBytes: 9, loudnessLufs: -14 };
};

/** A product whose demo upload is processing; `normalise` is what the first worker's ffmpeg does. */
async function uploaded(products: ProductStore, normalise: (deps: ReturnType<typeof testDependencies>, task: Task) => DemoMedia['normalise']) {
  const accountId = nextAccount++;
  const id = await products.newProductId();
  const product: Product = {
    id,
    account_id: accountId,
    name: 'Lamp',
    description: null,
    demo: { status: 'processing', original_key: demoOriginalKey(accountId, id) },
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
  await products.create(product);
  const blobs = new MemoryBlobStore();
  await blobs.putBuffer(demoOriginalKey(accountId, id), Buffer.from('original'), 'video/quicktime');
  const task: Task = { accountId, productId: id, originalKey: demoOriginalKey(accountId, id) };
  let first = true;
  const demoMedia: DemoMedia = { inspect: async () => ({ contentType: 'video/mp4', width: 720, height: 1280, durationS: 8 }), normalise: (...args) => (first ? ((first = false), normalise(deps, task)(...args)) : writesCanonical(...args)) };
  const deps = testDependencies({ products, blobs, demoMedia, now: () => NOW });
  return { deps, task, blobs, canonicalKey: demoCanonicalKey(accountId, id) };
}

type Task = { accountId: number; productId: number; originalKey: string };

describe.each([
  ['DynamoProductStore', () => new DynamoProductStore(t.table)],
  ['MemoryProductStore', () => new MemoryProductStore()],
] as const)('a duplicate settle on the %s', (_name, makeStore) => {
  test('that finishes second keeps the demo the first one made live', async () => {
    const products = makeStore();
    const { deps, task, blobs, canonicalKey } = await uploaded(products, (deps, task) => async (input, output, options) => {
      // The duplicate worker, started on the same task, settles while this one still converts.
      await settleDemo(deps, task);
      return writesCanonical(input, output, options);
    });
    await settleDemo(deps, task);
    expect((await products.get(task.accountId, task.productId))!.demo).toMatchObject({ status: 'ready', key: canonicalKey });
    expect(blobs.objects.has(canonicalKey)).toBe(true);
    expect(blobs.objects.has(task.originalKey)).toBe(false);
  });

  test('that fails after the first one settled neither fails the demo nor deletes it', async () => {
    const products = makeStore();
    const { deps, task, blobs, canonicalKey } = await uploaded(products, (deps, task) => async () => {
      await settleDemo(deps, task);
      throw new Error('ffmpeg exited 1');
    });
    await settleDemo(deps, task);
    expect((await products.get(task.accountId, task.productId))!.demo).toMatchObject({ status: 'ready', key: canonicalKey });
    expect(blobs.objects.has(canonicalKey)).toBe(true);
  });
});
