/**
 * What every step starts with: the job as it is now, and the inputs it still has. Steps re-read the
 * job instead of trusting the execution's input, so a job that was failed, or an input deleted,
 * meanwhile is seen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFinal, JOB_STAGES, type JobStage } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { Ports } from '#ports/ports';
import type { JobChanges } from '#ports/job-store';
import type { Product } from '#domain/product';
import type { Avatar } from '#domain/avatar';
import type { SavedReaction } from '#domain/reaction';
import { findAvatar } from '#use-cases/find-avatar';
import { inputDeleted, PipelineError } from './errors';
import { STATE_OF_STEP, type PipelineStep, type StepPayload } from './steps';

/** What every step reaches: the job record. */
export type JobDeps = Pick<Ports, 'jobs'>;

/** The statuses a step may still write in: a job that ended meanwhile is left as it ended. */
export const IN_FLIGHT = ['queued', 'processing', 'preview_ready'] as const;

/** The job, or undefined when it already ended (a late retry or a duplicate delivery: nothing to do). */
export async function activeJob({ jobs }: JobDeps, payload: StepPayload): Promise<StoredJob | undefined> {
  const job = await jobs.get(payload.account_id, payload.job_id);
  if (!job) throw new PipelineError('internal_error', `Job ${payload.job_id} does not exist`);
  return isFinal(job.status) ? undefined : job;
}

/**
 * Records that the job entered a step: its stage, a progress that only rises, and the ASL state a
 * restarted local runner re-enters. `processing` unless the step sets otherwise.
 */
export async function enterStep(
  { jobs }: JobDeps,
  job: StoredJob,
  step: PipelineStep,
  stage: JobStage,
  changes: JobChanges = {},
): Promise<StoredJob> {
  const updated = await jobs.update(
    job.account_id,
    job.id,
    {
      status: 'processing',
      stage,
      progress: Math.max(job.progress, JOB_STAGES[stage]),
      resume_at: STATE_OF_STEP[step],
      // The execution is moving: a decision handed to it has arrived, and a wait for capacity is over.
      handed_decision: null,
      capacity_wait: null,
      ...changes,
    },
    { statusIn: IN_FLIGHT },
  );
  if (!updated) throw new PipelineError('internal_error', `Job ${job.id} ended while ${step} was starting`);
  return updated;
}

export async function saveProgress({ jobs }: JobDeps, job: StoredJob, changes: JobChanges): Promise<StoredJob> {
  const updated = await jobs.update(job.account_id, job.id, changes, { statusIn: IN_FLIGHT });
  if (!updated) throw new PipelineError('internal_error', `Job ${job.id} ended while it was being worked on`);
  return updated;
}

export interface JobInputs {
  product: Product;
  avatar: Avatar | null;
  reaction: SavedReaction | null;
}

/** Where the records a job names are read from. */
export type InputDeps = Pick<Ports, 'products' | 'avatars' | 'stockAvatars' | 'reactions'>;

/** The records the job names, each still there (a stock avatar always is); a deleted one fails the job (input_deleted). */
export async function requireInputs(deps: InputDeps, job: StoredJob): Promise<JobInputs> {
  const { products, reactions } = deps;
  const [product, avatar, reaction] = await Promise.all([
    products.get(job.account_id, job.product_id),
    job.avatar_id === null ? null : findAvatar(deps, job.account_id, job.avatar_id),
    job.reaction_id === null ? null : reactions.get(job.account_id, job.reaction_id),
  ]);
  if (!product) throw inputDeleted(`Product ${job.product_id}`);
  if (job.avatar_id !== null && !avatar) throw inputDeleted(`Avatar ${job.avatar_id}`);
  if (job.reaction_id !== null && !reaction) throw inputDeleted(`Saved reaction ${job.reaction_id}`);
  if (avatar && avatar.status !== 'ready') {
    throw new PipelineError('invalid_input', `Avatar ${avatar.id} is ${avatar.status}; use a ready avatar`);
  }
  return { product, avatar: avatar ?? null, reaction: reaction ?? null };
}

/** A private scratch directory for one step, removed whatever happens. */
export async function withScratch<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'job-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A step that failed on a missing file asks why: if one of the job's inputs was deleted meanwhile,
 * that is the error the user should see (input_deleted), not the failure it caused.
 */
export async function blameDeletedInput(deps: InputDeps, job: StoredJob, error: unknown): Promise<unknown> {
  try {
    await requireInputs(deps, job);
    return error;
  } catch (gone) {
    return gone instanceof PipelineError && gone.code === 'input_deleted' ? gone : error;
  }
}
