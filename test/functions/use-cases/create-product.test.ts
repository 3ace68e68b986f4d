import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '#domain/errors';
import type { BackgroundTask } from '#ports/background-tasks';
import type { DemoMedia } from '#ports/demo-media';
import { createProduct } from '#use-cases/create-product';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-03-01T10:00:00Z');
let dir: string;
let demoPath: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'create-product-'));
  demoPath = join(dir, 'demo');
  await writeFile(demoPath, 'demo bytes');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function setup(options: { media?: Partial<DemoMedia>; dispatch?: (task: BackgroundTask) => Promise<void> } = {}) {
  const products = new MemoryProductStore();
  const blobs = new MemoryBlobStore();
  const dispatched: BackgroundTask[] = [];
  const demoMedia: DemoMedia = {
    inspect: async () => ({ contentType: 'video/quicktime', width: 720, height: 1280, durationS: 8 }),
    normalise: async () => {
      throw new Error('not in a create');
    },
    ...options.media,
  };
  const dispatch = options.dispatch ?? (async (task: BackgroundTask) => void dispatched.push(task));
  const deps = testDependencies({ products, blobs, demoMedia, tasks: { dispatch }, now: () => NOW });
  return { deps, products, blobs, dispatched };
}

describe('createProduct', () => {
  test('without a demo: the product is stored and nothing goes to the background', async () => {
    const { deps, products, dispatched } = setup();
    const product = await createProduct(deps, { accountId: 7, name: 'Glow Serum' });
    expect(product).toMatchObject({ account_id: 7, name: 'Glow Serum', description: null, demo: null, created_at: NOW.toISOString() });
    expect(await products.get(7, product.id)).toEqual(product);
    expect(dispatched).toEqual([]);
  });

  test('with a demo: the upload is stored under its media type and normalised in the background', async () => {
    const { deps, blobs, dispatched } = setup();
    const product = await createProduct(deps, { accountId: 7, name: 'Lamp', description: 'bright', demo: { path: demoPath } });
    expect(product.demo).toEqual({ status: 'processing', original_key: `accounts/7/products/${product.id}/demo-original` });
    expect(blobs.objects.get(product.demo!.original_key)).toMatchObject({ contentType: 'video/quicktime' });
    expect(dispatched).toEqual([{ type: 'normalise-demo', accountId: 7, productId: product.id, originalKey: product.demo!.original_key }]);
  });

  test('a landscape demo with a reframe and a trim is taken; the ask is stored with the product', async () => {
    const { deps, products, dispatched } = setup({ media: { inspect: async () => ({ contentType: 'video/webm', width: 1280, height: 720, durationS: 6 }) } });
    const intake = { reframe: 'crop' as const, start_s: 1, end_s: 5 };
    const product = await createProduct(deps, { accountId: 7, name: 'Lamp', demo: { path: demoPath }, intake });
    expect(product.demo_intake).toEqual(intake);
    expect((await products.get(7, product.id))?.demo_intake).toEqual(intake);
    expect(dispatched).toHaveLength(1);
  });

  test.each([
    ['a landscape demo without a reframe', { width: 1280, height: 720, durationS: 6 }, null, 422, 'reframe'],
    ['an end past the demo', { width: 720, height: 1280, durationS: 6 }, { reframe: null, start_s: null, end_s: 8 }, 400, 'demo_end_s'],
  ] as const)('%s is refused before anything is written', async (_label, facts, intake, status, param) => {
    const { deps, products, blobs, dispatched } = setup({ media: { inspect: async () => ({ contentType: 'video/mp4', ...facts }) } });
    await expect(createProduct(deps, { accountId: 7, name: 'Lamp', demo: { path: demoPath }, intake })).rejects.toMatchObject({ status, param });
    expect(products.products.size).toBe(0);
    expect(blobs.objects.size).toBe(0);
    expect(dispatched).toEqual([]);
  });

  test('a reframe or a trim without a demo is a 400 naming it, and makes nothing', async () => {
    const { deps, products } = setup();
    await expect(createProduct(deps, { accountId: 7, name: 'Lamp', intake: { reframe: 'blur', start_s: null, end_s: null } })).rejects.toMatchObject({ status: 400, param: 'reframe' });
    expect(products.products.size).toBe(0);
  });

  test('a refused upload leaves nothing behind', async () => {
    const refusal = new AppError('invalid_media', 'demo_video is not a video');
    const { deps, products, blobs } = setup({ media: { inspect: async () => Promise.reject(refusal) } });
    await expect(createProduct(deps, { accountId: 7, name: 'Lamp', demo: { path: demoPath } })).rejects.toBe(refusal);
    expect(products.products.size).toBe(0);
    expect(blobs.objects.size).toBe(0);
  });

  test('when the background task cannot be started, the product and its upload go again', async () => {
    const { deps, products, blobs } = setup({ dispatch: async () => Promise.reject(new Error('lambda down')) });
    await expect(createProduct(deps, { accountId: 7, name: 'Lamp', demo: { path: demoPath } })).rejects.toThrow('lambda down');
    expect(products.products.size).toBe(0);
    expect(blobs.objects.size).toBe(0);
  });
});
