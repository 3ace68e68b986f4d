/** Deletes a saved reaction: its record, job marker and library slot first, then its clip. */
import { notFound } from '#domain/errors';
import { reactionObjectPrefix } from '#domain/reaction';
import type { Ports } from '#ports/ports';

export async function removeReaction(deps: Pick<Ports, 'reactions' | 'blobs'>, input: { accountId: number; reactionId: number }): Promise<number> {
  const reaction = await deps.reactions.delete(input.accountId, input.reactionId);
  if (!reaction) throw notFound('Reaction');
  await deps.blobs.deletePrefix(reactionObjectPrefix(input.accountId, input.reactionId));
  return input.reactionId;
}
