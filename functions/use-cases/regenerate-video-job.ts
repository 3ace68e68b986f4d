/**
 * Regenerate: the job's move to its next round (a new seed, a new take to come, any changed inputs)
 * and that round's allowance unit are one write conditioned on the pending task token, so of N
 * concurrent regenerates exactly one moves the job and reserves; the others write nothing (409). Then
 * the decision is handed to the waiting execution; if it cannot be, the round is taken back whole.
 * The preview shown so far stays one of the job's takes (domain/takes.ts): approve may still pick it.
 * The dry run (quoteRegeneration) runs the same checks and reads the allowance instead: no write.
 */
import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '#domain/errors';
import { assertCanRegenerate, chargeNumberOfRegeneration } from '#domain/jobs';
import { regenerateReferenceKey, type HandedDecision, type JobDecision, type StoredJob } from '#domain/job-execution';
import { regenerateChangesOf, type RegenerateChanges, type RegenerateVideoInput } from '#domain/schemas/video';
import { newSeed } from '#domain/seed';
import { takesOf } from '#domain/takes';
import type { VideoQuote } from '#domain/quote';
import { estimateSeconds } from './job-duration-estimate';
import type { Ports } from '#ports/ports';
import type { JobChanges } from '#ports/job-store';
import { Compensation } from './compensation';
import { handOver, NOT_WAITING, pendingToken } from './hand-over-decision';
import { quoteOf, requireMusic, requireReadyAvatar, reservationOf, type JobReferenceReads } from './job-references';
import type { UseCaseLog } from './log';
import { JOB_STATE } from '#domain/job-states';
import { checkReferenceClip, type CheckedReference, type ReferenceClipDeps } from './reference-clip';
import { withLinkedReference } from './reference-link';
import { withFile, type SentFile, type SentFileDeps } from './use-upload';

export type RegenerateVideoJobDeps = Pick<Ports, 'jobs' | 'blobs' | 'jobRunner' | 'media' | 'references' | 'now'> & ReferenceClipDeps &
  Pick<JobReferenceReads, 'accounts' | 'avatars' | 'stockAvatars' | 'music'> &
  SentFileDeps & { log?: UseCaseLog };

export interface RegenerateVideoJobInput {
  accountId: number;
  jobId: number;
  changes: RegenerateVideoInput;
  /** A new reference clip (motion jobs): a multipart part on disk or a direct upload's id. */
  referenceVideo?: SentFile;
}

export type QuoteRegenerationDeps = Omit<RegenerateVideoJobDeps, 'jobRunner'> & Pick<Ports, 'ledger' | 'jobDurations'>;

/** A round that passed every check but the allowance's: the job as read, its changes, its pending token, any new clip (uploaded or linked). */
interface CheckedRound {
  job: StoredJob;
  changes: RegenerateChanges;
  token: string;
  reference?: CheckedReference;
}

export async function regenerateVideoJob(deps: RegenerateVideoJobDeps, input: RegenerateVideoJobInput): Promise<StoredJob> {
  // A direct upload is claimed for this round and given back if the round is not started.
  return withCheckedRound(deps, input, { claim: true }, (round) => nextRoundOf(deps, round));
}

/** The dry run: the checks of regenerateVideoJob, then one unit checked against the allowance, not reserved. */
export async function quoteRegeneration(deps: QuoteRegenerationDeps, input: RegenerateVideoJobInput): Promise<VideoQuote> {
  return withCheckedRound(deps, input, { claim: false }, async ({ job }) => {
    const [estimate = 0] = await estimateSeconds(deps, [{ method: job.method, mode: 'preview' }]);
    return quoteOf(deps, input.accountId, 1, estimate, deps.now());
  });
}

/**
 * Every check of a regenerate that reads no allowance, in order; a new clip, uploaded or linked, is
 * judged as a create judges it. A real one claims a direct upload for `next`, a dry run reads a copy.
 */
async function withCheckedRound<T>(
  deps: Omit<RegenerateVideoJobDeps, 'jobRunner'>,
  input: RegenerateVideoJobInput,
  options: { claim: boolean },
  next: (round: CheckedRound) => Promise<T>,
): Promise<T> {
  const { accountId, jobId, referenceVideo } = input;
  const job = await deps.jobs.get(accountId, jobId);
  if (!job) throw notFound('Job');
  assertCanRegenerate(job);
  const changes = regenerateChangesOf(job.method, input.changes, referenceVideo !== undefined);
  if (changes.avatarId !== undefined) await requireReadyAvatar(deps, accountId, changes.avatarId);
  if (changes.sound) await requireMusic(deps, accountId, changes.sound.musicId);
  if (changes.reference?.source === 'link') return withLinkedReference(deps, changes.reference.url, (reference) => next({ job, changes, token: pendingToken(job), reference }));
  if (!referenceVideo) return next({ job, changes, token: pendingToken(job) });
  return withFile(
    deps,
    accountId,
    'reference_video',
    referenceVideo,
    async (path) => {
      const clip = await checkReferenceClip(deps, path);
      return next({ job, changes, token: pendingToken(job), reference: { path, clip } });
    },
    options,
  );
}

async function nextRoundOf(deps: RegenerateVideoJobDeps, { job, changes, token, reference }: CheckedRound): Promise<StoredJob> {
  const accountId = job.account_id;
  const jobId = job.id;

  const now = deps.now();
  const round = job.regenerations + 1;
  const unit = await reservationOf(deps, { accountId, jobId, chargeNumber: chargeNumberOfRegeneration(job.regenerations) }, now);
  const referenceKey = reference ? regenerateReferenceKey(accountId, jobId, round, randomUUID()) : undefined;
  const undo = new Compensation(deps);
  if (reference && referenceKey) {
    await deps.blobs.putFile(referenceKey, reference.path, reference.clip.contentType);
    undo.add('drop the stored reference clip', () => deps.blobs.deleteKeys([referenceKey]), { bestEffort: true });
  }

  const decision: JobDecision = { action: 'regenerate', regenerations: round };
  const handed = { token, decision, at: now.toISOString() };
  const moved = await undo.guard(() =>
    deps.jobs.startRound(accountId, jobId, nextRound(job, round, changes, referenceKey, handed), { statusIn: ['preview_ready'], taskToken: token }, unit, now),
  );
  if (!moved) {
    await undo.undo();
    throw conflict(NOT_WAITING);
  }
  undo.add('put the job back at preview_ready and take its unit back', () =>
    deps.jobs.restore(job, { statusIn: ['queued'], taskToken: null, regenerations: round }, unit),
  );
  await handOver(deps.jobRunner, token, decision, undo);
  return (await deps.jobs.get(accountId, jobId)) ?? job;
}

function nextRound(job: StoredJob, round: number, changes: RegenerateChanges, referenceKey: string | undefined, handed: HandedDecision): JobChanges {
  return {
    status: 'queued',
    stage: 'queued',
    regenerations: round,
    seed: newSeed(),
    reaction: null,
    preview: null,
    // Already recorded by RenderPreview; a job that showed its preview before takes were recorded keeps it here.
    takes: takesOf(job),
    preview_expires_at: null,
    task_token: null,
    handed_decision: handed,
    resume_at: JOB_STATE.GenerateReaction,
    ...(changes.prompt !== undefined ? { prompt: changes.prompt } : {}),
    ...(changes.avatarId !== undefined ? { avatar_id: changes.avatarId } : {}),
    // A linked clip was fetched and judged at the door: the round renders those bytes, and keeps saying where they came from.
    ...(changes.reference?.source === 'link' ? { video_source: 'link' as const, reference_url: changes.reference.url, reference_key: referenceKey ?? null } : {}),
    ...(changes.reference?.source === 'upload' && referenceKey ? { video_source: 'upload' as const, reference_url: null, reference_key: referenceKey } : {}),
    ...(changes.sound ? { sound: changes.sound.sound, music_id: changes.sound.musicId } : {}),
    ...(changes.voiceLine !== undefined ? { voice_line: changes.voiceLine } : {}),
    ...(changes.hookStyle !== undefined ? { hook_style: changes.hookStyle } : {}),
    ...(changes.hookDuration !== undefined ? { hook_duration: changes.hookDuration } : {}),
  };
}
