/**
 * The workers' safety net. A demo being normalised and a prompt avatar being generated are
 * `processing` until their worker settles them; a worker that crashed, timed out on every retry, or
 * was never run (its event expired, the local process died) would leave them so forever. Past
 * PROCESSING_DEADLINE_MS no worker can still be on them, so the sweeper fails them with a reason the
 * API shows, through the same conditional settle writes the workers use (a record settled meanwhile
 * is left alone). Objects a dead worker may have left sit under the record's prefix and go with it.
 */
import type { Ports } from '#ports/ports';
import { logger } from '#functions/logger';
import { raiseEvent } from '#use-cases/webhook-events';

/**
 * Longer than any worker invocation can still be pending: Lambda keeps an asynchronous event at most
 * an hour (lib/cloud/workers.ts), and its last attempt runs at most 15 minutes.
 */
export const PROCESSING_DEADLINE_MS = 2 * 60 * 60 * 1000;

const DEMO_STUCK = { code: 'processing_timeout', message: 'The demo video was not converted in time; upload it again' };
const AVATAR_STUCK = { code: 'generation_timeout', message: 'The avatar was not generated in time; create it again' };

export interface StuckReport {
  failed_demos: number;
  failed_avatars: number;
}

export type StuckDeps = Pick<Ports, 'products' | 'avatars' | 'now'>;

export async function failStuckProcessing({ products, avatars, now }: StuckDeps): Promise<StuckReport> {
  const cutoff = new Date(now().getTime() - PROCESSING_DEADLINE_MS);
  const report: StuckReport = { failed_demos: 0, failed_avatars: 0 };
  for (const { accountId, productId } of await products.demosProcessingBefore(cutoff)) {
    const demo = (await products.get(accountId, productId))?.demo;
    if (demo?.status !== 'processing') continue;
    const event = raiseEvent('product.demo.failed', accountId, { kind: 'product', id: productId }, now());
    if (await products.settleDemo(accountId, productId, { original_key: demo.original_key, status: 'failed', error: DEMO_STUCK }, now(), event)) {
      report.failed_demos++;
      logger.warn('failed a demo stuck in processing', { accountId, productId });
    }
  }
  for (const { accountId, avatarId } of await avatars.processingBefore(cutoff)) {
    const avatar = await avatars.get(accountId, avatarId);
    if (avatar?.status !== 'processing') continue;
    const outcome = { status: 'failed', image_key: null, width: null, height: null, engine: avatar.engine, seed: avatar.seed, error: AVATAR_STUCK } as const;
    if (await avatars.settle(accountId, avatarId, outcome, now(), raiseEvent('avatar.failed', accountId, { kind: 'avatar', id: avatarId }, now()))) {
      report.failed_avatars++;
      logger.warn('failed an avatar stuck in processing', { accountId, avatarId });
    }
  }
  return report;
}
