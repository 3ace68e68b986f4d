/**
 * Saves a preview job's reaction clip in the account's library for reuse. Idempotent per job: a
 * repeat answers the reaction saved first, whatever the job's status now. Capped per plan.
 */
import { conflict, notFound } from '#domain/errors';
import type { Job } from '#domain/jobs';
import { limitsAt } from '#domain/account';
import { reactionClipKey, type SavedReaction } from '#domain/reaction';
import type { Ports } from '#ports/ports';
import { libraryFull } from '#ports/reaction-store';
import { dropObjectsIfFails } from './drop-objects';
import { accountOfScope } from '#domain/test-mode';

export type SaveReactionDeps = Pick<Ports, 'reactions' | 'jobs' | 'accounts' | 'library' | 'blobs' | 'now'>;

/** `created` is false when the job had been saved already and `reaction` is that earlier one. */
export interface SavedFromJob {
  reaction: SavedReaction;
  created: boolean;
}

export async function saveReaction(deps: SaveReactionDeps, input: { accountId: number; jobId: number }): Promise<SavedFromJob> {
  const { accountId, jobId } = input;
  const savedId = await deps.reactions.idForJob(accountId, jobId);
  if (savedId !== undefined) return existing(deps, accountId, savedId);

  const [job, account] = await Promise.all([deps.jobs.get(accountId, jobId), deps.accounts.get(accountOfScope(accountId))]);
  if (!job) throw notFound('job_id: job');
  if (!account) throw notFound('Account');
  const clip = clipOf(job);
  const cap = limitsAt(account, deps.now()).libraryCap;
  // Refused before the copy when the library is plainly full; the store's save is what enforces it.
  if ((await deps.library.count(accountId)) >= cap) throw libraryFull(cap);

  const id = await deps.reactions.newReactionId();
  const reaction: SavedReaction = {
    id,
    account_id: accountId,
    job_id: job.id,
    method: job.method,
    avatar_id: job.avatar_id,
    prompt: job.prompt,
    clip_key: reactionClipKey(accountId, id),
    duration_s: clip.duration_s,
    emotion: clip.emotion,
    face_box: clip.face_box ?? null,
    created_at: deps.now().toISOString(),
  };
  // The library gets its own copy: the job's files may be cleaned up, the saved clip must stay.
  try {
    await deps.blobs.copy(clip.key, reaction.clip_key);
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') {
      throw conflict(`The reaction clip of job ${job.id} is no longer available; regenerate the preview and save again`);
    }
    throw error;
  }
  const outcome = await dropObjectsIfFails(deps.blobs, [reaction.clip_key], () => deps.reactions.saveFromJob(reaction, cap));
  if (outcome.created) return { reaction, created: true };
  // Another request saved this job first: its reaction is the one, ours is discarded.
  await deps.blobs.deleteKeys([reaction.clip_key]).catch(() => undefined);
  return existing(deps, accountId, outcome.existingId);
}

async function existing(deps: SaveReactionDeps, accountId: number, reactionId: number): Promise<SavedFromJob> {
  const reaction = await deps.reactions.get(accountId, reactionId);
  // The marker and the record are written and deleted together, so this means a delete just ran.
  if (!reaction) throw conflict('The reaction saved from this job was just deleted; retry to save it again');
  return { reaction, created: false };
}

function clipOf(job: Job) {
  if (job.status !== 'preview_ready') {
    throw conflict(`Job ${job.id} is ${job.status}; a reaction can be saved only while its job is at preview_ready (create the job with mode=preview)`);
  }
  if (!job.reaction) throw conflict(`Job ${job.id} has no reaction clip to save yet; retry in a moment`);
  return job.reaction;
}
