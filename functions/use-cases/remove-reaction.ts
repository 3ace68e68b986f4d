/** Deletes a saved reaction: its record, job marker and library slot first, then its clip. */
import { notFound } from '#domain/errors';
import { reactionObjectPrefix } from '#domain/reaction';
import type { Dependencies } from '#ports/dependencies';

export async function removeReaction(deps: Pick<Dependencies, 'reactions' | 'blobs'>, input: { accountId: number; reactionId: number }): Promise<number> {
  const reaction = await deps.reactions.delete(input.accountId, input.reactionId);
  if (!reaction) throw notFound('Reaction');
  await deps.blobs.deletePrefix(reactionObjectPrefix(input.accountId, input.reactionId));
  return input.reactionId;
}
