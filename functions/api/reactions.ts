/**
 * Saved reactions: a preview job's reaction clip kept in the account's library for reuse. A save is
 * idempotent per job (a repeat answers 200 with the same reaction, whatever the job's status now) and
 * capped per plan (402 library_full).
 */
import * as z from 'zod/mini';
import type { Operation } from '#http/api-types';
import { readBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam } from '#http/params';
import { created, deleted, ok } from '#http/respond';
import { conflict, notFound } from '#domain/errors';
import { idField } from '#domain/schemas/common';
import { planOf } from '#domain/plans';
import { reactionClipKey, reactionObjectPrefix, savedReactionView, type SavedReaction } from '#domain/reaction';
import type { Job } from '#domain/jobs';
import { getAccount } from '#adapters/dynamodb/accounts';
import { getJob } from '#adapters/dynamodb/jobs';
import { countLibrary } from '#adapters/dynamodb/library';
import * as reactions from '#adapters/dynamodb/reactions';
import { copyObject, deleteKeys, deletePrefix, playbackUrl } from '#adapters/s3/blob-store';

const saveReactionInput = z.strictObject({ job_id: idField });

async function present(reaction: SavedReaction) {
  return savedReactionView(reaction, await playbackUrl(reaction.clip_key));
}

async function existingReaction(accountId: number, reactionId: number) {
  const reaction = await reactions.getReaction(accountId, reactionId);
  // The marker and the record are written and deleted together, so this means a delete just ran.
  if (!reaction) throw conflict('The reaction saved from this job was just deleted; retry to save it again');
  return ok(await present(reaction));
}

function clipOf(job: Job) {
  if (job.status !== 'preview_ready') {
    throw conflict(
      `Job ${job.id} is ${job.status}; a reaction can be saved only while its job is at preview_ready (create the job with mode=preview)`,
    );
  }
  if (!job.reaction) throw conflict(`Job ${job.id} has no reaction clip to save yet; retry in a moment`);
  return job.reaction;
}

const list: Operation = async (request) => {
  const all = await reactions.listReactions(request.principal.accountId);
  return ok(await Promise.all(all.map(present)));
};

const create: Operation = async (request) => {
  const body = await readBody(request.event, { accept: ['json', 'form', 'multipart'] });
  let jobId: number;
  try {
    jobId = parseInput(saveReactionInput, body.fields, 'reaction').job_id;
  } finally {
    await body.cleanup();
  }
  const accountId = request.principal.accountId;

  const savedId = await reactions.getReactionIdForJob(accountId, jobId);
  if (savedId !== undefined) return existingReaction(accountId, savedId);

  const [job, account] = await Promise.all([getJob(accountId, jobId), getAccount(accountId)]);
  if (!job) throw notFound('job_id: job');
  if (!account) throw notFound('Account');
  const clip = clipOf(job);
  const cap = planOf(account.plan).libraryCap;
  // Refused before the copy when the library is plainly full; the transaction below is what enforces it.
  if ((await countLibrary(accountId)) >= cap) throw reactions.libraryFull(cap);

  const id = await reactions.newReactionId();
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
    created_at: new Date().toISOString(),
  };
  // The library gets its own copy: the job's files may be cleaned up, the saved clip must stay.
  try {
    await copyObject(clip.key, reaction.clip_key);
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') {
      throw conflict(`The reaction clip of job ${job.id} is no longer available; regenerate the preview and save again`);
    }
    throw error;
  }
  let outcome: reactions.SaveOutcome;
  try {
    outcome = await reactions.saveReactionFromJob(reaction, cap);
  } catch (error) {
    await deleteKeys([reaction.clip_key]).catch(() => undefined);
    throw error;
  }
  if (!outcome.created) {
    // Another request saved this job first: its reaction is the one, ours is discarded.
    await deleteKeys([reaction.clip_key]).catch(() => undefined);
    return existingReaction(accountId, outcome.existingId);
  }
  return created(await present(reaction));
};

const get: Operation = async (request) => {
  const reaction = await reactions.getReaction(request.principal.accountId, idParam(request));
  if (!reaction) throw notFound('Reaction');
  return ok(await present(reaction));
};

const remove: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const id = idParam(request);
  const reaction = await reactions.deleteReaction(accountId, id);
  if (!reaction) throw notFound('Reaction');
  await deletePrefix(reactionObjectPrefix(accountId, id));
  return deleted(id);
};

export const reactionOperations = { list, create, get, remove };
