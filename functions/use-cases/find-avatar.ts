/**
 * An account's avatars are its own (the avatar store) and the stock ones every account has
 * (domain/stock-avatars): every read of an avatar by id or of the whole set goes through here, so a
 * stock id works wherever an avatar id does (GET /avatars/{id}, video jobs, the pipeline's steps).
 */
import type { Avatar } from '#domain/avatar';
import { notFound } from '#domain/errors';
import { isStockAvatarId } from '#domain/stock-avatars';
import type { Ports } from '#ports/ports';

export type FindAvatarDeps = Pick<Ports, 'avatars' | 'stockAvatars'>;

/** The avatar `avatarId` as `accountId` sees it: a stock one, or the account's own; undefined for anything else. */
export async function findAvatar(deps: FindAvatarDeps, accountId: number, avatarId: number): Promise<Avatar | undefined> {
  return isStockAvatarId(avatarId) ? deps.stockAvatars.get(accountId, avatarId) : deps.avatars.get(accountId, avatarId);
}

/**
 * GET /avatars: the stock avatars in the catalogue's order, then the account's own, newest first. The
 * stock portraits are made sure of first, so every `image_url` in the answer plays.
 */
export async function listAvatars(deps: FindAvatarDeps, accountId: number): Promise<Avatar[]> {
  const [own] = await Promise.all([deps.avatars.list(accountId), deps.stockAvatars.ensureImages()]);
  return [...deps.stockAvatars.list(accountId), ...own];
}

/** GET /avatars/{id}: one avatar, a stock portrait made sure of first (its link then plays even if no list came first). */
export async function getAvatar(deps: FindAvatarDeps, accountId: number, avatarId: number): Promise<Avatar> {
  const avatar = await findAvatar(deps, accountId, avatarId);
  if (!avatar) throw notFound('Avatar');
  if (avatar.stock) await deps.stockAvatars.ensureImages();
  return avatar;
}
