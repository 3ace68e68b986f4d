/**
 * The sample product: a product made from the clip the stack draws once (BlobSampleDemo over an
 * in-memory blob store, with a renderer double that counts its renders), ready at once when the clip
 * is stored, else processing until the sample-demo worker (settleSampleDemo) makes the clip and
 * gives the product its copy. Failures leave neither record nor copy.
 */
import { writeFile } from 'node:fs/promises';
import { demoCanonicalKey, demoOriginalKey } from '#domain/product';
import { SAMPLE_DEMO, SAMPLE_PRODUCT, SAMPLES_PREFIX } from '#domain/sample-product';
import type { BackgroundTask } from '#ports/background-tasks';
import type { NormalisedDemo } from '#ports/demo-media';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';
import { CANONICAL_ENCODING_ID } from '#render';
import { createSampleProduct } from '#use-cases/create-sample-product';
import { settleSampleDemo } from '#use-cases/settle-sample-demo';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-12-01T09:00:00Z');
const ACCOUNT = 7;
const CLIP = Buffer.from('the sample clip');

/** What the real renderer answers for the clip it writes (render/sample): the spec, levelled. */
const asSpecified = (sizeBytes: number): NormalisedDemo => ({
  encoding: CANONICAL_ENCODING_ID,
  durationS: SAMPLE_DEMO.durationS,
  width: SAMPLE_DEMO.width,
  height: SAMPLE_DEMO.height,
  sizeBytes,
  loudnessLufs: -14,
});

function world(options: { render?: (out: string) => Promise<NormalisedDemo>; whileRendering?: (products: MemoryProductStore) => Promise<unknown> } = {}) {
  const products = new MemoryProductStore();
  const blobs = new MemoryBlobStore();
  const dispatched: BackgroundTask[] = [];
  let renders = 0;
  const render =
    options.render ??
    (async (out: string) => {
      renders++;
      await options.whileRendering?.(products);
      await writeFile(out, CLIP);
      return asSpecified(CLIP.length);
    });
  const sampleDemo = new BlobSampleDemo(blobs, { render });
  const deps = testDependencies({ products, blobs, sampleDemo, now: () => NOW, tasks: { dispatch: async (task) => void dispatched.push(task) } });
  /** Runs what was dispatched, as the worker would. */
  const runWorker = async () => {
    for (const task of dispatched.splice(0)) if (task.type === 'sample-demo') await settleSampleDemo({ ...deps, log: { info: () => undefined, warn: () => undefined, error: () => undefined } }, task);
  };
  return { products, blobs, deps, dispatched, runWorker, renders: () => renders, sampleKeys: () => blobs.listKeys(SAMPLES_PREFIX) };
}

describe('createSampleProduct', () => {
  test("the stack's first sample product is processing and hands the clip's making to the worker; the worker makes it once and settles the product ready", async () => {
    const w = world();
    const product = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    expect(product).toMatchObject({ account_id: ACCOUNT, name: SAMPLE_PRODUCT.name, description: SAMPLE_PRODUCT.description, demo: { status: 'processing' } });
    expect(w.dispatched).toEqual([{ type: 'sample-demo', accountId: ACCOUNT, productId: product.id }]);
    expect(w.renders()).toBe(0);

    await w.runWorker();
    expect(w.renders()).toBe(1);
    expect((await w.products.get(ACCOUNT, product.id))!.demo).toEqual({
      status: 'ready',
      original_key: demoOriginalKey(ACCOUNT, product.id),
      key: demoCanonicalKey(ACCOUNT, product.id),
      encoding: CANONICAL_ENCODING_ID,
      duration_s: 6,
      width: 1080,
      height: 1920,
      size_bytes: CLIP.length,
      loudness_lufs: -14,
    });
    // The product owns its copy; the shared clip stays for the next one.
    expect(w.blobs.objects.get(demoCanonicalKey(ACCOUNT, product.id))!.data).toEqual(CLIP);
    expect(await w.sampleKeys()).toHaveLength(1);
  });

  test('once the clip is stored, each call is a copy: ready within the request, nothing dispatched, nothing drawn again', async () => {
    const w = world();
    await createSampleProduct(w.deps, { accountId: ACCOUNT });
    await w.runWorker();
    const second = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    const third = await createSampleProduct(w.deps, { accountId: 8 });
    expect(second.demo).toMatchObject({ status: 'ready', key: demoCanonicalKey(ACCOUNT, second.id), duration_s: 6, width: 1080, height: 1920 });
    expect(third.demo).toMatchObject({ status: 'ready', key: demoCanonicalKey(8, third.id) });
    expect(w.dispatched).toEqual([]);
    expect(w.renders()).toBe(1);
    expect((await w.products.list(ACCOUNT, 1, 20)).total).toBe(2);
    expect(w.blobs.objects.get(demoCanonicalKey(8, third.id))!.data).toEqual(CLIP);
  });

  test('a product the store refuses leaves no copy behind; a worker that cannot be started leaves no record', async () => {
    const w = world();
    await createSampleProduct(w.deps, { accountId: ACCOUNT });
    await w.runWorker();
    const refusing = { ...w.deps, products: Object.assign(Object.create(w.products) as MemoryProductStore, { create: async () => Promise.reject(new Error('table down')) }) };
    await expect(createSampleProduct(refusing, { accountId: ACCOUNT })).rejects.toThrow('table down');
    expect((await w.blobs.listKeys(`accounts/${ACCOUNT}/`)).length).toBe(1);

    const fresh = world();
    const stuck = { ...fresh.deps, tasks: { dispatch: async () => Promise.reject(new Error('lambda down')) } };
    await expect(createSampleProduct(stuck, { accountId: ACCOUNT })).rejects.toThrow('lambda down');
    expect((await fresh.products.list(ACCOUNT, 1, 20)).total).toBe(0);
  });
});

describe('the sample-demo worker (settleSampleDemo)', () => {
  test('a product deleted while the clip was made keeps nothing; the clip stays made for the next product', async () => {
    const w = world({ whileRendering: (products) => products.delete(ACCOUNT, 1) });
    const product = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    expect(product.id).toBe(1);
    await w.runWorker();
    expect(await w.blobs.listKeys(`accounts/${ACCOUNT}/`)).toEqual([]);
    expect(await w.sampleKeys()).toHaveLength(1);
  });

  test('a clip that could not be made fails the demo as our problem, stores nothing, and the next product tries again', async () => {
    let attempts = 0;
    const w = world({
      render: async (out) => {
        attempts++;
        if (attempts === 1) throw new Error('ffmpeg was killed');
        await writeFile(out, CLIP);
        return asSpecified(CLIP.length);
      },
    });
    const first = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    await w.runWorker();
    expect((await w.products.get(ACCOUNT, first.id))!.demo).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
    expect(await w.blobs.listKeys('')).toEqual([]);

    const second = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    await w.runWorker();
    expect((await w.products.get(ACCOUNT, second.id))!.demo).toMatchObject({ status: 'ready' });
  });

  test('a clip unlike its spec is never stored: every product would describe it wrongly', async () => {
    const w = world({
      render: async (out) => {
        await writeFile(out, CLIP);
        return { ...asSpecified(CLIP.length), durationS: 5.2, loudnessLufs: null };
      },
    });
    const product = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    await w.runWorker();
    expect((await w.products.get(ACCOUNT, product.id))!.demo).toMatchObject({ status: 'failed' });
    expect(await w.sampleKeys()).toEqual([]);
  });

  test('a duplicate run of a settled task changes nothing', async () => {
    const w = world();
    const product = await createSampleProduct(w.deps, { accountId: ACCOUNT });
    const task = w.dispatched[0] as Extract<BackgroundTask, { type: 'sample-demo' }>;
    await w.runWorker();
    const settled = await w.products.get(ACCOUNT, product.id);
    await settleSampleDemo(w.deps, task);
    expect(await w.products.get(ACCOUNT, product.id)).toEqual(settled);
    expect(w.renders()).toBe(1);
  });

  test('where the drawing is not bundled, a missing clip is a failure said as such, not a silent wait', async () => {
    const blobs = new MemoryBlobStore();
    await expect(new BlobSampleDemo(blobs).make()).rejects.toThrow(/not bundled/);
    expect(await new BlobSampleDemo(blobs).find()).toBeUndefined();
  });
});
