/**
 * Saved reactions: a preview job's reaction clip kept in the account's library for reuse. A save is
 * idempotent per job (a repeat answers 200 with the same reaction, whatever the job's status now) and
 * capped per plan (402 library_full).
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam } from '#http/params';
import { created, deleted, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { saveReactionInput } from '#domain/schemas/reaction';
import { savedReactionView, type SavedReaction } from '#domain/reaction';
import { saveReaction } from '#use-cases/save-reaction';
import { removeReaction } from '#use-cases/remove-reaction';
import { answeredOnce } from './answered-once';


async function present(request: AuthenticatedRequest<Pick<Ports, 'blobs'>>, reaction: SavedReaction) {
  return savedReactionView(reaction, await request.deps.blobs.playbackUrl(reaction.clip_key));
}

type Reads = Pick<Ports, 'reactions' | 'blobs'>;

const list: Operation<Reads> = async (request) => {
  const all = await request.deps.reactions.list(request.principal.accountId);
  return ok(await Promise.all(all.map((reaction) => present(request, reaction))));
};

const create: Operation<NeedsOf<typeof saveReaction> & Reads> = async (request) => {
  const body = await readRouteBody(request);
  let jobId: number;
  try {
    jobId = parseInput(saveReactionInput, body.fields, 'reaction').job_id;
  } finally {
    await body.cleanup();
  }
  const saved = await saveReaction(request.deps, { accountId: request.principal.accountId, jobId });
  return (saved.created ? created : ok)(await present(request, saved.reaction));
};

const get: Operation<Reads> = async (request) => {
  const reaction = await request.deps.reactions.get(request.principal.accountId, idParam(request));
  if (!reaction) throw notFound('Reaction');
  return ok(await present(request, reaction));
};

const remove: Operation<NeedsOf<typeof removeReaction>> = async (request) => {
  return deleted(await removeReaction(request.deps, { accountId: request.principal.accountId, reactionId: idParam(request) }));
};

export const reactionOperations = { list, create: answeredOnce(create), get, remove };
