/**
 * POST /videos/batch: up to 20 jobs of one product from one request. Every check of every variant runs
 * first (the product once; each variant's avatar, saved reaction, music track and direct upload, a refusal naming
 * the variant); then the batch, all its jobs, one allowance unit each and the Idempotency-Key are one
 * transaction, so an allowance that cannot cover the whole batch is 402 with nothing written. Then
 * each job's execution starts, in variant order.
 *
 * A job whose execution cannot start is failed and its unit released (unless it moved meanwhile: an
 * execution owns it), rather than withdrawn as POST /videos withdraws its job: the batch and its key
 * stay whole, so its view and a repeat with the key show that variant, failed with nothing charged,
 * and the other variants' executions, which may have started, are never taken back. The ledger moves
 * once either way: the unit is released, never charged.
 *
 * POST /videos/batch?dry_run=true (quoteVideoBatch) runs the same checks and reads the allowance for
 * one unit per variant; nothing is written or claimed.
 */
import { createHash } from 'node:crypto';
import { AppError, isAppError } from '#domain/errors';
import type { VideoBatch } from '#domain/batches';
import type { VideoQuote } from '#domain/quote';
import { estimateSeconds } from './job-duration-estimate';
import { chargeNumberOfJob, JOB_STAGES, jobObjectKeys } from '#domain/jobs';
import { executionInputOf, newJob, type StoredJob } from '#domain/job-execution';
import type { VideoVariant } from '#domain/schemas/video-batch';
import { newSeed } from '#domain/seed';
import type { Ports } from '#ports/ports';
import type { BatchIdempotencyRecord, IdempotencyClaim, JobStore } from '#ports/job-store';
import { concurrentRequestAnswer, repeatOf, type KeyedCreations } from './keyed-repeat';
import { Compensation } from './compensation';
import type { CreateVideoJobDeps } from './create-video-job';
import { checkNamedRecords, checkProduct, quoteOf, reservationOf } from './job-references';
import { logOf } from './log';
import { metricsOf } from './metrics-of';
import { raiseEvent } from './webhook-events';
import { checkReferenceClip, type CheckedReference } from './reference-clip';
import { withLinkedReferences } from './reference-link';
import { UploadAlreadyUsed, withFile } from './use-upload';

export type CreateVideoBatchDeps = CreateVideoJobDeps & Pick<Ports, 'ledger'>;
type CheckDeps = Omit<CreateVideoBatchDeps, 'jobRunner' | 'metrics'>;

export interface CreateVideoBatchInput {
  accountId: number;
  productId: number;
  variants: VideoVariant[];
  /** The client's Idempotency-Key header, already checked for shape. */
  idempotencyKey?: string;
}

/** A batch with its jobs, in variant order. */
export interface BatchWithJobs {
  batch: VideoBatch;
  jobs: StoredJob[];
}

export async function createVideoBatch(deps: CreateVideoBatchDeps, input: CreateVideoBatchInput): Promise<BatchWithJobs> {
  return (await createOrReplayVideoBatch(deps, input)).batch;
}

/** createVideoBatch, saying whether the batch is an earlier request's, answered again for its Idempotency-Key. */
export async function createOrReplayVideoBatch(deps: CreateVideoBatchDeps, input: CreateVideoBatchInput): Promise<{ batch: BatchWithJobs; replayed: boolean }> {
  const idempotency = idempotencyClaimOf(input);
  if (idempotency) {
    const earlier = await repeatOf(keyedBatches(deps.jobs, input.accountId), idempotency, deps.now());
    if (earlier) return { batch: earlier, replayed: true };
  }
  try {
    return await withCheckedVariants(deps, input, { claim: true }, (references) => startBatch(deps, input, idempotency, references));
  } catch (error) {
    // The same batch sent twice at once with its key: the twin holds the uploads, so this one answers as a repeat.
    if (idempotency && error instanceof UploadAlreadyUsed) return { batch: await concurrentRequestAnswer(keyedBatches(deps.jobs, input.accountId), idempotency, deps.now()), replayed: true };
    throw error;
  }
}

/** The dry run: every check of createVideoBatch, and the allowance read for one unit per variant. */
export type QuoteVideoBatchDeps = CheckDeps & Pick<Ports, 'jobDurations'>;

export async function quoteVideoBatch(deps: QuoteVideoBatchDeps, input: CreateVideoBatchInput): Promise<VideoQuote> {
  const { accountId, variants } = input;
  // Jobs share the render slots: the last one's next stop is about the sum of their own times away.
  const estimate = (await estimateSeconds(deps, variants.map(({ request }) => request))).reduce((sum, seconds) => sum + seconds, 0);
  const idempotency = idempotencyClaimOf(input);
  if (idempotency && (await repeatOf(keyedBatches(deps.jobs, accountId), idempotency, deps.now()))) {
    return quoteOf(deps, accountId, 0, estimate, deps.now());
  }
  return withCheckedVariants(deps, input, { claim: false }, () => quoteOf(deps, accountId, variants.length, estimate, deps.now()));
}

/** The batch and its jobs as they are now; undefined for an unknown or another account's batch. */
export async function readVideoBatch(deps: Pick<Ports, 'jobs'>, accountId: number, batchId: number): Promise<BatchWithJobs | undefined> {
  const batch = await deps.jobs.getBatch(accountId, batchId);
  if (!batch) return undefined;
  const jobs = await Promise.all(batch.job_ids.map((jobId) => deps.jobs.get(accountId, jobId)));
  return { batch, jobs: jobs.filter((job): job is StoredJob => job !== undefined) };
}

/**
 * Every check, in order: the product once, then each variant's avatar, saved reaction and music
 * track (each distinct combination read once), then each variant's reference clip: its direct upload
 * (checked, copied and inspected; claimed by a real create and given back if the batch is not made)
 * or its link (fetched and judged once however many variants name it, up to four links at once; each
 * job stores its own copy).
 * `next` runs on what passed.
 */
async function withCheckedVariants<T>(
  deps: CheckDeps,
  input: CreateVideoBatchInput,
  options: { claim: boolean },
  next: (references: (CheckedReference | undefined)[]) => Promise<T>,
): Promise<T> {
  const { accountId, productId, variants } = input;
  await checkProduct(deps, accountId, productId);
  const checked = new Set<string>();
  for (const [i, { request }] of variants.entries()) {
    const named = `${request.avatarId}/${request.reactionId}/${request.musicId}`;
    if (checked.has(named)) continue;
    await namingVariant(i, () => checkNamedRecords(deps, accountId, request));
    checked.add(named);
  }
  const links = variants.map(({ request }) => request.referenceUrl);
  // A refused link names the first variant that gave it.
  const refusalOf = (link: string, error: unknown) => namedForVariant(links.indexOf(link), error);
  return withLinkedReferences(deps, links.filter((url): url is string => url !== null), refusalOf, (linked) => {
    const references: (CheckedReference | undefined)[] = links.map((url) => (url === null ? undefined : linked.get(url)));
    const withUploadFrom = async (i: number): Promise<T> => {
      if (i === variants.length) return next(references);
      const uploadId = variants[i]!.referenceUploadId;
      if (references[i] || uploadId === null) return withUploadFrom(i + 1);
      // Only a refusal of this variant's clip names it: what runs once it passed (the next variants, the batch's writes) speaks for itself.
      let passed = false;
      try {
        return await withFile(deps, accountId, 'reference_video', { uploadId }, async (path) => {
          references[i] = { path, clip: await checkReferenceClip(deps, path) };
          passed = true;
          return withUploadFrom(i + 1);
        }, options);
      } catch (error) {
        throw passed ? error : namedForVariant(i, error);
      }
    };
    return withUploadFrom(0);
  });
}

/** A refusal of one variant's record names the variant (`variants[3].reaction_id: ...`). */
async function namingVariant<T>(index: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw namedForVariant(index, error);
  }
}

/** A 4xx refusal with the variant's name before its field; one already named is left as it is, and so is a 5xx. */
function namedForVariant(index: number, error: unknown): unknown {
  if (!isAppError(error) || error.status >= 500 || error instanceof UploadAlreadyUsed || error.message.startsWith('variants[')) return error;
  return new AppError(error.code, `variants[${index}].${error.message}`, { headers: error.headers, cause: error });
}

async function startBatch(
  deps: CreateVideoBatchDeps,
  input: CreateVideoBatchInput,
  idempotency: IdempotencyClaim | undefined,
  references: (CheckedReference | undefined)[],
): Promise<{ batch: BatchWithJobs; replayed: boolean }> {
  const { accountId, productId, variants } = input;
  const now = deps.now();
  const batchId = await deps.jobs.newBatchId(accountId);
  // Ids are handed out concurrently; sorted, they follow the variants' order.
  const jobIds = (await Promise.all(variants.map(() => deps.jobs.newJobId(accountId)))).sort((a, b) => a - b);
  const firstUnit = await reservationOf(deps, { accountId, jobId: jobIds[0]!, chargeNumber: chargeNumberOfJob() }, now);
  const units = jobIds.map((jobId) => ({ ...firstUnit, ref: { ...firstUnit.ref, jobId } }));
  const jobs = variants.map(({ request }, i) => {
    const referenceKey = references[i] ? jobObjectKeys(accountId, jobIds[i]!, 0).reference : null;
    return newJob(accountId, jobIds[i]!, request, referenceKey, newSeed(), now, batchId);
  });
  const batch: VideoBatch = { id: batchId, account_id: accountId, product_id: productId, job_ids: jobIds, created_at: now.toISOString() };
  const undo = new Compensation(deps);

  for (const [i, reference] of references.entries()) {
    const referenceKey = jobs[i]!.reference_key;
    if (!reference || !referenceKey) continue;
    await deps.blobs.putFile(referenceKey, reference.path, reference.clip.contentType);
    undo.add('drop the stored reference clip', () => deps.blobs.deleteKeys([referenceKey]), { bestEffort: true });
  }
  // The batch, its jobs, their units and the key are written together: none exists without the others.
  const written = await undo.guard(() => deps.jobs.createBatch(batch, jobs, idempotency, units, now));
  if (!written.written) {
    // A concurrent request with the same key won; this one wrote nothing and answers with its batch.
    await undo.undo();
    return { batch: await concurrentRequestAnswer(keyedBatches(deps.jobs, accountId), idempotency!, now), replayed: true };
  }

  // One at a time, so the jobs queue for render slots in the variants' order. The answer shows each
  // job as written (queued, as POST /videos answers), or as it is when its start failed.
  const answered: StoredJob[] = [];
  for (const job of jobs) {
    try {
      await deps.jobRunner.start(executionInputOf(job));
      metricsOf(deps).record({ name: 'JobsStarted' });
      answered.push(job);
    } catch (error) {
      logOf(deps).warn('the execution of a batch job could not be started; the job fails and its unit is released', { err: error, jobId: job.id, batchId });
      answered.push(await failUnstarted(deps, job));
    }
  }
  return { batch: { batch, jobs: answered }, replayed: false };
}

const NOT_STARTED = 'The job could not be started; nothing was charged. Create it again (POST /videos) in a moment';

/** Only while the job is still queued: an execution that did start (its answer lost) owns it. The job as it is then. */
async function failUnstarted(deps: CreateVideoBatchDeps, job: StoredJob): Promise<StoredJob> {
  const now = deps.now();
  const failed = await deps.jobs.update(
    job.account_id,
    job.id,
    { status: 'failed', stage: 'failed', progress: JOB_STAGES.failed, error: { code: 'internal_error', message: NOT_STARTED }, resume_at: null },
    { statusIn: ['queued'] },
    now,
    raiseEvent('video.job.failed', job.account_id, { kind: 'job', id: job.id }, now),
  );
  if (!failed) return (await deps.jobs.get(job.account_id, job.id)) ?? job;
  // A failure before this release leaves a reserved unit of an ended job: the sweeper releases it.
  await deps.ledger.release({ accountId: job.account_id, jobId: job.id, chargeNumber: chargeNumberOfJob() }, deps.now());
  metricsOf(deps).record({ name: 'JobsFailed', code: 'internal_error' });
  return failed;
}

/** The account's batches by their Idempotency-Keys. */
const keyedBatches = (jobs: JobStore, accountId: number): KeyedCreations<BatchIdempotencyRecord, BatchWithJobs> => ({
  what: 'batch',
  notFoundName: 'Batch',
  earlier: (keyHash, now) => jobs.getBatchIdempotency(accountId, keyHash, now),
  made: (earlier) => readVideoBatch({ jobs }, accountId, earlier.batch_id),
});

/** The batch as understood (defaults filled in, JSON or form alike), the uploads by id: they can be used once. */
function idempotencyClaimOf(input: CreateVideoBatchInput): IdempotencyClaim | undefined {
  if (!input.idempotencyKey) return undefined;
  const understood = JSON.stringify({ product: input.productId, variants: input.variants });
  return { keyHash: sha256(input.idempotencyKey), requestHash: sha256(understood) };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
