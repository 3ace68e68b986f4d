/** Deletes an avatar: its record first (so jobs see it gone), then its objects. A stock avatar is every account's: 409. */
import { avatarObjectPrefix } from '#domain/avatar';
import { conflict, notFound } from '#domain/errors';
import { isStockAvatarId } from '#domain/stock-avatars';
import type { Ports } from '#ports/ports';

export async function removeAvatar(deps: Pick<Ports, 'avatars' | 'blobs'>, input: { accountId: number; avatarId: number }): Promise<number> {
  if (isStockAvatarId(input.avatarId)) {
    throw conflict(`Avatar ${input.avatarId} is a stock avatar, which every account shares: it cannot be deleted (it does not count against the plan's avatar cap)`);
  }
  const avatar = await deps.avatars.delete(input.accountId, input.avatarId);
  if (!avatar) throw notFound('Avatar');
  await deps.blobs.deletePrefix(avatarObjectPrefix(input.accountId, input.avatarId));
  return input.avatarId;
}
