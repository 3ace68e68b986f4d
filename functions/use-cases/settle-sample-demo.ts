/**
 * The sample-demo worker: gives a sample product created before this stack had the clip its copy,
 * making the clip first when it is still missing (the first sample product of a stack), then settles
 * the product's demo as the normaliser settles an upload's, with its webhook event. A product deleted
 * meanwhile, or settled by a duplicate run, keeps nothing of this run.
 */
import { demoCanonicalKey } from '#domain/product';
import type { Ports } from '#ports/ports';
import { sampleDemoRecord } from './create-sample-product';
import { logOf, type UseCaseLog } from './log';
import { raiseEvent } from './webhook-events';

export type SettleSampleDemoDeps = Pick<Ports, 'products' | 'blobs' | 'sampleDemo' | 'now'> & { log?: UseCaseLog };

const OUR_FAILURE = { code: 'internal_error', message: 'The sample demo clip could not be made because of a problem on our side; create the sample product again' };

export async function settleSampleDemo(deps: SettleSampleDemoDeps, task: { accountId: number; productId: number }): Promise<void> {
  const { accountId, productId } = task;
  const product = await deps.products.get(accountId, productId);
  if (product?.demo?.status !== 'processing') return;
  const { original_key } = product.demo;
  const copy = demoCanonicalKey(accountId, productId);
  try {
    const sample = (await deps.sampleDemo.find()) ?? (await deps.sampleDemo.make());
    await deps.blobs.copy(sample.key, copy);
    const now = deps.now();
    const demo = { ...sampleDemoRecord(accountId, productId, sample), original_key };
    const kept = await deps.products.settleDemo(accountId, productId, demo, now, raiseEvent('product.demo.ready', accountId, { kind: 'product', id: productId }, now));
    if (!kept) await dropUnlessLive(deps, task, copy);
  } catch (error) {
    logOf(deps).error('making the sample demo failed', { error, productId });
    const now = deps.now();
    await deps.products
      .settleDemo(accountId, productId, { original_key, status: 'failed', error: OUR_FAILURE }, now, raiseEvent('product.demo.failed', accountId, { kind: 'product', id: productId }, now))
      .catch(() => undefined);
    await dropUnlessLive(deps, task, copy).catch(() => undefined);
  }
}

/** The copy is the product's own key: a duplicate run that settled first made it the live demo; otherwise nobody owns it. */
async function dropUnlessLive(deps: SettleSampleDemoDeps, task: { accountId: number; productId: number }, copy: string): Promise<void> {
  const product = await deps.products.get(task.accountId, task.productId);
  if (product?.demo?.status === 'ready' && product.demo.key === copy) return;
  await deps.blobs.deleteKeys([copy]);
}
