/**
 * POST /products/sample: a product from the built-in demo clip (domain/sample-product), counted and
 * deleted like any other. Once this stack has made the clip, the product gets its own copy of it
 * within the request (a server-side copy) and is ready at once; the stack's first sample product waits
 * `processing` while the sample-demo worker draws the clip, as an uploaded demo waits for its
 * normalisation. A failure leaves neither record nor copy behind.
 */
import { demoCanonicalKey, demoOriginalKey, newProduct, type DemoVideo, type Product } from '#domain/product';
import { SAMPLE_PRODUCT } from '#domain/sample-product';
import type { Ports } from '#ports/ports';
import type { StoredSampleDemo } from '#ports/sample-demo';
import { recordProduct } from './create-product';
import { dropObjectsIfFails } from './drop-objects';

export type CreateSampleProductDeps = Pick<Ports, 'products' | 'blobs' | 'sampleDemo' | 'tasks' | 'now'>;

/** The demo record of a product given its copy of the stored clip at `key`. */
export function sampleDemoRecord(accountId: number, productId: number, sample: StoredSampleDemo): DemoVideo {
  const { demo } = sample;
  return {
    status: 'ready',
    // Nothing was uploaded: the key a demo keeps its upload under is named, as every demo names one, and stays empty.
    original_key: demoOriginalKey(accountId, productId),
    key: demoCanonicalKey(accountId, productId),
    encoding: demo.encoding,
    duration_s: demo.durationS,
    width: demo.width,
    height: demo.height,
    size_bytes: demo.sizeBytes,
    loudness_lufs: demo.loudnessLufs,
  };
}

export async function createSampleProduct(deps: CreateSampleProductDeps, input: { accountId: number }): Promise<Product> {
  const { accountId } = input;
  const sample = await deps.sampleDemo.find();
  const id = await deps.products.newProductId();
  const demo: DemoVideo = sample ? sampleDemoRecord(accountId, id, sample) : { status: 'processing', original_key: demoOriginalKey(accountId, id), source: 'sample' };
  const product = newProduct({ id, account_id: accountId, name: SAMPLE_PRODUCT.name, description: SAMPLE_PRODUCT.description, demo }, deps.now());
  const copied = sample ? demoCanonicalKey(accountId, id) : null;
  await dropObjectsIfFails(deps.blobs, copied ? [copied] : [], async () => {
    if (sample && copied) await deps.blobs.copy(sample.key, copied);
    await recordProduct(deps, product, sample ? undefined : { type: 'sample-demo', accountId, productId: id });
  });
  return product;
}
