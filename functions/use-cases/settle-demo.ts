/**
 * Normalises an uploaded demo video once, in the background, to the canonical encoding, so that
 * every later job joins it by stream copy instead of re-encoding it; then records the outcome on the
 * product, if the product still has that upload.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppError } from '#domain/errors';
import { demoCanonicalKey } from '#domain/product';
import type { Ports } from '#ports/ports';
import { logOf, type UseCaseLog } from './log';
import { raiseEvent } from './webhook-events';

export type SettleDemoDeps = Pick<Ports, 'products' | 'blobs' | 'demoMedia' | 'now'> & { log?: UseCaseLog };

const NORMALISE_TIMEOUT_MS = 10 * 60 * 1000;

export async function settleDemo(deps: SettleDemoDeps, task: { accountId: number; productId: number; originalKey: string }): Promise<void> {
  const { accountId, productId, originalKey } = task;
  const product = await deps.products.get(accountId, productId);
  if (!product?.demo || product.demo.original_key !== originalKey || product.demo.status !== 'processing') return;
  const base = { original_key: originalKey };
  const canonicalKey = demoCanonicalKey(accountId, productId);
  const dir = await mkdtemp(join(tmpdir(), 'rs-normalise-'));
  try {
    const input = join(dir, 'input');
    const output = join(dir, 'demo.mp4');
    await deps.blobs.getToFile(originalKey, input);
    const result = await deps.demoMedia.normalise(input, output, { timeoutMs: NORMALISE_TIMEOUT_MS, ...(product.demo_intake ? { intake: product.demo_intake } : {}) });
    await deps.blobs.putFile(canonicalKey, output, 'video/mp4');
    const now = deps.now();
    const kept = await deps.products.settleDemo(
      accountId,
      productId,
      { ...base, status: 'ready', key: canonicalKey, encoding: result.encoding, duration_s: result.durationS, width: result.width, height: result.height, size_bytes: result.sizeBytes, loudness_lufs: result.loudnessLufs },
      now,
      raiseEvent('product.demo.ready', accountId, { kind: 'product', id: productId }, now),
    );
    if (kept) await deps.blobs.deleteKeys([originalKey]);
    else await dropUnlessLive(deps, task, canonicalKey);
  } catch (error) {
    logOf(deps).error('demo normalisation failed', { error, productId });
    await deps.products
      .settleDemo(
        accountId,
        productId,
        { ...base, status: 'failed', error: demoFailure(error) },
        deps.now(),
        raiseEvent('product.demo.failed', accountId, { kind: 'product', id: productId }, deps.now()),
      )
      .catch(() => undefined);
    await dropUnlessLive(deps, task, canonicalKey).catch(() => undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What the product says about a failed demo: the file's own fault as the refusal the media work
 * gave (invalid_media), anything else (storage, a killed or timed-out tool) as ours, so the uploader
 * is not told to blame a good file.
 */
function demoFailure(error: unknown): { code: string; message: string } {
  if (isAppError(error) && error.code === 'invalid_media') return { code: error.code, message: error.message };
  return { code: 'internal_error', message: 'The demo video could not be processed because of a problem on our side; upload it again' };
}

/**
 * What this run made, unless it is the demo: the canonical key is one per product, so when a duplicate
 * run of the same task settled first, the file there is the live demo's. Otherwise the product was
 * deleted or its demo failed meanwhile, and the file belongs to nobody.
 */
async function dropUnlessLive(deps: SettleDemoDeps, task: { accountId: number; productId: number }, canonicalKey: string): Promise<void> {
  const product = await deps.products.get(task.accountId, task.productId);
  if (product?.demo?.status === 'ready' && product.demo.key === canonicalKey) return;
  await deps.blobs.deleteKeys([canonicalKey]);
}
