/**
 * What a job names must exist in the account and be usable before the job is accepted: the product
 * (its demo ready), the avatar (ready), the saved reaction, the music track (a built-in, or one of the
 * account's own); and the account's plan sets the limit its
 * allowance unit is reserved under (a dry run reads that allowance instead of reserving).
 */
import { conflict, notFound } from '#domain/errors';
import { accountTrackNumber } from '#domain/music';
import { builtInTrack } from '#domain/sound';
import { billingPeriodOf } from '#domain/billing-period';
import { limitsAt } from '#domain/account';
import { allowanceState, assertAllowanceCovers, type VideoQuote } from '#domain/quote';
import type { VideoRequest } from '#domain/schemas/video';
import type { ChargeRef, Reservation } from '#ports/allowance-ledger';
import type { Ports } from '#ports/ports';
import { findAvatar } from './find-avatar';
import { isTestScope, TEST_MONTHLY_LIMIT } from '#domain/test-mode';

/** The stores of the records a job names, and of the account whose plan it is charged under. */
export type JobReferenceReads = Pick<Ports, 'accounts' | 'products' | 'avatars' | 'stockAvatars' | 'reactions' | 'music'>;

/** Foreign or unknown ids in the body are 404 naming the field; inputs not usable yet are 409. */
export async function checkReferencedRecords(deps: Omit<JobReferenceReads, 'accounts'>, accountId: number, request: VideoRequest): Promise<void> {
  await checkProduct(deps, accountId, request.productId);
  await checkNamedRecords(deps, accountId, request);
}

/** The product a job is for: the account's, with its demo ready (or none). */
export async function checkProduct(deps: Pick<JobReferenceReads, 'products'>, accountId: number, productId: number): Promise<void> {
  const product = await deps.products.get(accountId, productId);
  if (!product) throw notFound(`product_id: Product ${productId}`);
  if (product.demo?.status === 'processing') {
    throw conflict(`The demo video of product ${product.id} is still being prepared; retry when its demo_video.status is ready`);
  }
  if (product.demo?.status === 'failed') {
    throw conflict(`The demo video of product ${product.id} could not be processed (${product.demo.error?.message ?? 'unknown error'}); create the product again with another demo`);
  }
}

/** The avatar (ready), the saved reaction and the music track a job names, if it names them. */
export async function checkNamedRecords(deps: Pick<JobReferenceReads, 'avatars' | 'stockAvatars' | 'reactions' | 'music'>, accountId: number, request: VideoRequest): Promise<void> {
  if (request.avatarId !== null) await requireReadyAvatar(deps, accountId, request.avatarId);
  if (request.reactionId !== null && !(await deps.reactions.get(accountId, request.reactionId))) {
    throw notFound(`reaction_id: Saved reaction ${request.reactionId}`);
  }
  await requireMusic(deps, accountId, request.musicId);
}

/** A built-in track always exists; an account track ("t12") must be this account's, and not deleted. */
export async function requireMusic(deps: Pick<JobReferenceReads, 'music'>, accountId: number, musicId: string | null): Promise<void> {
  if (musicId === null || builtInTrack(musicId)) return;
  const number = accountTrackNumber(musicId);
  if (number === undefined || !(await deps.music.get(accountId, number))) throw notFound(`music_id: Music track ${musicId}`);
}

export async function requireReadyAvatar(deps: Pick<JobReferenceReads, 'avatars' | 'stockAvatars'>, accountId: number, avatarId: number): Promise<void> {
  const avatar = await findAvatar(deps, accountId, avatarId);
  if (!avatar) throw notFound(`avatar_id: Avatar ${avatarId}`);
  if (avatar.status === 'processing') throw conflict(`Avatar ${avatarId} is still being generated; retry when its status is ready`);
  if (avatar.status === 'failed') throw conflict(`Avatar ${avatarId} failed to generate; create another avatar`);
}

/** The unit `ref` is reserved as: this month's period, under the account's plan. */
export async function reservationOf(deps: Pick<JobReferenceReads, 'accounts'>, ref: ChargeRef, now: Date): Promise<Reservation> {
  return { ref, period: billingPeriodOf(now).id, limit: await monthlyLimitOf(deps, ref.accountId, now) };
}

/** The plan in force now decides: an upgrade this period raises it at once, over the units already used. */
async function monthlyLimitOf(deps: Pick<JobReferenceReads, 'accounts'>, accountId: number, now: Date): Promise<number> {
  if (isTestScope(accountId)) return TEST_MONTHLY_LIMIT;
  const account = await deps.accounts.get(accountId);
  if (!account) throw notFound('Account');
  return limitsAt(account, now).monthlyVideos;
}

/**
 * A dry run's answer: the allowance read (the account 404 and the 402 as the reservation would
 * answer them), checked to cover `units`, and nothing reserved.
 */
export async function quoteOf(
  deps: Pick<JobReferenceReads, 'accounts'> & Pick<Ports, 'ledger'>,
  accountId: number,
  units: number,
  estimatedSeconds: number,
  now: Date,
): Promise<VideoQuote> {
  const limit = await monthlyLimitOf(deps, accountId, now);
  const period = billingPeriodOf(now).id;
  const allowance = allowanceState(limit, await deps.ledger.periodUsage(accountId, period));
  assertAllowanceCovers(allowance, units, period);
  return { valid: true, units, allowance, estimated_seconds: estimatedSeconds };
}
