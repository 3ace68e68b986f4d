/** Deletes an avatar: its record first (so jobs see it gone), then its objects. */
import { avatarObjectPrefix } from '#domain/avatar';
import { notFound } from '#domain/errors';
import type { Dependencies } from '#ports/dependencies';

export async function removeAvatar(deps: Pick<Dependencies, 'avatars' | 'blobs'>, input: { accountId: number; avatarId: number }): Promise<number> {
  const avatar = await deps.avatars.delete(input.accountId, input.avatarId);
  if (!avatar) throw notFound('Avatar');
  await deps.blobs.deletePrefix(avatarObjectPrefix(input.accountId, input.avatarId));
  return input.avatarId;
}
