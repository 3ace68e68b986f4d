import { writeFile } from 'node:fs/promises';
import { AppError } from '#domain/errors';
import type { Product } from '#domain/product';
import type { DemoMedia } from '#ports/demo-media';
import { settleDemo } from '#use-cases/settle-demo';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-03-01T10:00:00Z');
const ORIGINAL = 'accounts/7/products/1/demo-original';
const CANONICAL = 'accounts/7/products/1/demo.mp4';
const task = { accountId: 7, productId: 1, originalKey: ORIGINAL };

const product = (demo: Product['demo']): Product => ({
  id: 1,
  account_id: 7,
  name: 'Lamp',
  description: null,
  demo,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
});

async function setup(normalise: DemoMedia['normalise']) {
  const products = new MemoryProductStore();
  const blobs = new MemoryBlobStore();
  await products.create(product({ status: 'processing', original_key: ORIGINAL }));
  await blobs.putBuffer(ORIGINAL, Buffer.from('original'), 'video/quicktime');
  const demoMedia: DemoMedia = { inspect: async () => ({ contentType: 'video/mp4', width: 720, height: 1280, durationS: 8 }), normalise };
  return { products, blobs, deps: testDependencies({ products, blobs, demoMedia, now: () => NOW }) };
}

const writesCanonical: DemoMedia['normalise'] = async (_input, output) => {
  await writeFile(output, 'canonical');
  return { encoding: 'canonical-v1', durationS: 12.5, width: 1080, height: 1920, sizeBytes: 9, loudnessLufs: -14 };
};

describe('settleDemo', () => {
  test('normalises the upload, records it ready and drops the original', async () => {
    const { deps, products, blobs } = await setup(writesCanonical);
    await settleDemo(deps, task);
    expect((await products.get(7, 1))!.demo).toEqual({
      original_key: ORIGINAL,
      status: 'ready',
      key: CANONICAL,
      encoding: 'canonical-v1',
      duration_s: 12.5,
      width: 1080,
      height: 1920,
      size_bytes: 9,
      loudness_lufs: -14,
    });
    expect([...blobs.objects.keys()]).toEqual([CANONICAL]);
  });

  test('the demo is normalised as the product asked (reframed, trimmed), and the ask stays on the product', async () => {
    const asked: unknown[] = [];
    const { deps, products } = await setup(async (input, output, options) => {
      asked.push(options.intake);
      return writesCanonical(input, output, options);
    });
    const intake = { reframe: 'blur' as const, start_s: 1.5, end_s: 4 };
    await products.delete(7, 1);
    await products.create({ ...product({ status: 'processing', original_key: ORIGINAL }), demo_intake: intake });
    await settleDemo(deps, task);
    expect(asked).toEqual([intake]);
    expect(await products.get(7, 1)).toMatchObject({ demo: { status: 'ready' }, demo_intake: intake });
  });

  test('without an ask, the demo is normalised as it is', async () => {
    const asked: unknown[] = [];
    const { deps } = await setup(async (input, output, options) => {
      asked.push(options);
      return writesCanonical(input, output, options);
    });
    await settleDemo(deps, task);
    expect(asked).toEqual([{ timeoutMs: expect.any(Number) }]);
  });

  test('a product deleted meanwhile keeps nothing of the work', async () => {
    const { deps, products, blobs } = await setup(async (input, output, options) => {
      await products.delete(7, 1);
      return writesCanonical(input, output, options);
    });
    await settleDemo(deps, task);
    expect(blobs.objects.has(CANONICAL)).toBe(false);
  });

  test('a video that cannot be converted marks the demo failed as invalid_media, with the media work\'s own words', async () => {
    const refusal = new AppError('invalid_media', 'demo_video has no playable video stream');
    const { deps, products, blobs } = await setup(async () => Promise.reject(refusal));
    await settleDemo(deps, task);
    expect((await products.get(7, 1))!.demo).toMatchObject({ status: 'failed', error: { code: 'invalid_media', message: refusal.message } });
    expect(blobs.objects.has(CANONICAL)).toBe(false);
  });

  test.each([
    ['the converter killed or timed out', () => Promise.reject(new Error('ffmpeg timed out and was killed'))],
    ['the storage refusing the converted file', null],
  ] as const)('a failure on our side (%s) marks the demo failed as internal_error, not as a bad file', async (_name, failing) => {
    const { deps, products, blobs } = await setup(failing ?? writesCanonical);
    if (!failing) jest.spyOn(blobs, 'putFile').mockRejectedValue(Object.assign(new Error('We encountered an internal error'), { $metadata: { httpStatusCode: 500 } }));
    await settleDemo(deps, task);
    const demo = (await products.get(7, 1))!.demo;
    expect(demo).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
    expect(demo?.error?.message).toMatch(/on our side/);
    expect(blobs.objects.has(CANONICAL)).toBe(false);
  });

  test('a duplicate run that finishes after the first settled leaves the live demo where it is', async () => {
    let duplicate = true;
    const { deps, products, blobs } = await setup(async (input, output, options) => {
      if (duplicate) {
        duplicate = false;
        await settleDemo(deps, task);
      }
      return writesCanonical(input, output, options);
    });
    await settleDemo(deps, task);
    expect((await products.get(7, 1))!.demo).toMatchObject({ status: 'ready', key: CANONICAL });
    expect([...blobs.objects.keys()]).toEqual([CANONICAL]);
  });

  test('a task for another upload, or one already settled, does nothing', async () => {
    const normalise = jest.fn(writesCanonical);
    const { deps } = await setup(normalise);
    await settleDemo(deps, { ...task, originalKey: 'accounts/7/products/1/older' });
    await settleDemo(deps, task);
    await settleDemo(deps, task);
    expect(normalise).toHaveBeenCalledTimes(1);
  });
});
