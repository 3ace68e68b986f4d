/**
 * Normalises an uploaded demo video once, in the background, to the canonical encoding (DESIGN §3),
 * so that every later job joins it by stream copy instead of re-encoding it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackgroundTask } from '#ports/background-tasks';
import { getProduct, settleDemo } from '#adapters/dynamodb/products';
import { deleteKeys, getToFile, putFile } from '#adapters/s3/blob-store';
import { demoCanonicalKey } from '#domain/product';
import { normaliseVideo } from '#media/normalise';
import { logger } from '#functions/logger';

export type NormaliseTask = Extract<BackgroundTask, { type: 'normalise-demo' }>;

const NORMALISE_TIMEOUT_MS = 10 * 60 * 1000;

export async function normaliseDemo(task: NormaliseTask): Promise<void> {
  const product = await getProduct(task.accountId, task.productId);
  if (!product?.demo || product.demo.original_key !== task.originalKey || product.demo.status !== 'processing') return;
  const base = { original_key: task.originalKey };
  const canonicalKey = demoCanonicalKey(task.accountId, task.productId);
  const dir = await mkdtemp(join(tmpdir(), 'rs-normalise-'));
  try {
    const input = join(dir, 'input');
    const output = join(dir, 'demo.mp4');
    await getToFile(task.originalKey, input);
    const result = await normaliseVideo(input, output, { timeoutMs: NORMALISE_TIMEOUT_MS });
    await putFile(canonicalKey, output, 'video/mp4');
    const kept = await settleDemo(task.accountId, task.productId, {
      ...base,
      status: 'ready',
      key: canonicalKey,
      duration_s: result.durationS,
      width: result.width,
      height: result.height,
      size_bytes: result.sizeBytes,
    });
    // Deleted or replaced meanwhile: what we made belongs to nobody.
    await deleteKeys(kept ? [task.originalKey] : [canonicalKey]);
  } catch (error) {
    logger.error('demo normalisation failed', { error: error as Error, productId: task.productId });
    await settleDemo(task.accountId, task.productId, {
      ...base,
      status: 'failed',
      error: { code: 'invalid_media', message: 'The demo video could not be converted; upload it again or try another file' },
    }).catch(() => undefined);
    await deleteKeys([canonicalKey]).catch(() => undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
