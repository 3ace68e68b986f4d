/**
 * POST /videos: checks what the job names, then writes the job, its Idempotency-Key and its allowance
 * unit in one transaction and starts its execution. A reference clip, uploaded or linked, is judged
 * first and stored under the job. With an Idempotency-Key a repeat of the same request answers the
 * job it made before anything is read or fetched again; the same key with another request is 409. A
 * job whose execution cannot be started is taken back whole (job, key, unit, stored clip), unless it
 * moved meanwhile: then an execution owns it and it is answered as it is.
 *
 * POST /videos?dry_run=true (quoteVideoJob) runs the same checks in the same order, and the
 * allowance's as a read, then answers what the job would take: nothing is written or claimed.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { AppError } from '#domain/errors';
import type { VideoQuote } from '#domain/quote';
import { estimateSeconds } from './job-duration-estimate';
import { chargeNumberOfJob, jobObjectKeys } from '#domain/jobs';
import { executionInputOf, newJob, type StoredJob } from '#domain/job-execution';
import type { VideoRequest } from '#domain/schemas/video';
import { newSeed } from '#domain/seed';
import type { Ports } from '#ports/ports';
import type { IdempotencyClaim, IdempotencyRecord, JobStore } from '#ports/job-store';
import { concurrentRequestAnswer, repeatOf, type KeyedCreations } from './keyed-repeat';
import { Compensation } from './compensation';
import { checkReferencedRecords, quoteOf, reservationOf, type JobReferenceReads } from './job-references';
import type { UseCaseLog } from './log';
import type { Metrics } from '#ports/metrics';
import { metricsOf } from './metrics-of';
import { checkReferenceClip, type CheckedReference, type ReferenceClipDeps } from './reference-clip';
import { withLinkedReference } from './reference-link';
import { UploadAlreadyUsed, withFile, type SentFile, type SentFileDeps } from './use-upload';

export type CreateVideoJobDeps = Pick<Ports, 'jobs' | 'blobs' | 'jobRunner' | 'media' | 'references' | 'now'> & ReferenceClipDeps & JobReferenceReads & SentFileDeps & { log?: UseCaseLog; metrics?: Metrics };

export interface CreateVideoJobInput {
  accountId: number;
  request: VideoRequest;
  /** The client's Idempotency-Key header, already checked for shape. */
  idempotencyKey?: string;
  /** The reference clip (motion jobs with video_source=upload): a multipart part on disk or a direct upload's id. */
  referenceVideo?: SentFile;
}

/** What the checks read (both the create and the dry run). */
type CheckDeps = Omit<CreateVideoJobDeps, 'jobRunner' | 'metrics'>;
export type QuoteVideoJobDeps = CheckDeps & Pick<Ports, 'ledger' | 'jobDurations'>;

export async function createVideoJob(deps: CreateVideoJobDeps, input: CreateVideoJobInput): Promise<StoredJob> {
  return (await createOrReplayVideoJob(deps, input)).job;
}

/** createVideoJob, saying whether the job is an earlier request's, answered again for its Idempotency-Key. */
export async function createOrReplayVideoJob(deps: CreateVideoJobDeps, input: CreateVideoJobInput): Promise<{ job: StoredJob; replayed: boolean }> {
  const { accountId } = input;
  const idempotency = await idempotencyClaimOf(input);
  if (idempotency) {
    const earlier = await repeatOf(keyedJobs(deps.jobs, accountId), idempotency, deps.now());
    if (earlier) return { job: earlier, replayed: true };
  }
  try {
    // A direct upload is claimed for this job and given back if the job is not made.
    return await withCheckedRequest(deps, input, { claim: true }, (reference) => startJob(deps, input, idempotency, reference));
  } catch (error) {
    // The same request sent twice at once with its key: the twin holds the upload, so this one answers as a repeat.
    if (idempotency && error instanceof UploadAlreadyUsed) return { job: await concurrentRequestAnswer(keyedJobs(deps.jobs, accountId), idempotency, deps.now()), replayed: true };
    throw error;
  }
}

/**
 * The dry run: the checks of createVideoJob, the allowance read instead of reserved. A repeat of an
 * earlier request with its Idempotency-Key would answer that job and reserve nothing: 0 units.
 */
export async function quoteVideoJob(deps: QuoteVideoJobDeps, input: CreateVideoJobInput): Promise<VideoQuote> {
  const { accountId, request } = input;
  const [estimate = 0] = await estimateSeconds(deps, [request]);
  const idempotency = await idempotencyClaimOf(input);
  if (idempotency && (await repeatOf(keyedJobs(deps.jobs, accountId), idempotency, deps.now()))) {
    return quoteOf(deps, accountId, 0, estimate, deps.now());
  }
  return withCheckedRequest(deps, input, { claim: false }, () => quoteOf(deps, accountId, 1, estimate, deps.now()));
}

/**
 * Every check of a create that reads no allowance, in order: what the request names, then the
 * reference clip (a direct upload's checks, or the link fetched; then the clip inspected and its face
 * looked for). `next` runs on what passed; a real create claims a direct upload for it and stores a
 * linked clip as it stores an uploaded one, a dry run only reads a copy.
 */
async function withCheckedRequest<T>(
  deps: CheckDeps,
  input: CreateVideoJobInput,
  options: { claim: boolean },
  next: (reference: CheckedReference | undefined) => Promise<T>,
): Promise<T> {
  const { accountId, request, referenceVideo } = input;
  await checkReferencedRecords(deps, accountId, request);
  if (request.referenceUrl !== null) return withLinkedReference(deps, request.referenceUrl, next);
  if (!referenceVideo) return next(undefined);
  return withFile(deps, accountId, 'reference_video', referenceVideo, async (path) => next({ path, clip: await checkReferenceClip(deps, path) }), options);
}

async function startJob(
  deps: CreateVideoJobDeps,
  input: CreateVideoJobInput,
  idempotency: IdempotencyClaim | undefined,
  reference: CheckedReference | undefined,
): Promise<{ job: StoredJob; replayed: boolean }> {
  const { accountId, request } = input;

  const now = deps.now();
  const jobId = await deps.jobs.newJobId(accountId);
  const unit = await reservationOf(deps, { accountId, jobId, chargeNumber: chargeNumberOfJob() }, now);
  const referenceKey = reference ? jobObjectKeys(accountId, jobId, 0).reference : null;
  const job = newJob(accountId, jobId, request, referenceKey, newSeed(), now);
  const undo = new Compensation(deps);

  if (reference && referenceKey) {
    await deps.blobs.putFile(referenceKey, reference.path, reference.clip.contentType);
    undo.add('drop the stored reference clip', () => deps.blobs.deleteKeys([referenceKey]), { bestEffort: true });
  }
  // The job, its Idempotency-Key and its unit are written together: none exists without the others.
  const written = await undo.guard(() => deps.jobs.create(job, idempotency, unit, now));
  if (!written.written) {
    // A concurrent request with the same key won; this one wrote nothing and answers with its job.
    await undo.undo();
    return { job: await concurrentRequestAnswer(keyedJobs(deps.jobs, accountId), idempotency!, now), replayed: true };
  }
  // Taken back only while the job has not moved: an execution that did start owns it from then on.
  undo.add('withdraw the job, its key and its unit', () => deps.jobs.withdrawCreated(accountId, jobId, idempotency?.keyHash, unit));

  try {
    await deps.jobRunner.start(executionInputOf(job));
  } catch (error) {
    if ((await undo.undo()) === 'kept') {
      // The answer was lost but the execution runs: the job started.
      metricsOf(deps).record({ name: 'JobsStarted' });
      return { job: (await deps.jobs.get(accountId, jobId)) ?? job, replayed: false };
    }
    throw new AppError('upstream_unavailable', 'The job could not be started; nothing was charged. Retry in a moment', {
      cause: error,
      headers: { 'retry-after': '5' },
    });
  }
  metricsOf(deps).record({ name: 'JobsStarted' });
  return { job, replayed: false };
}

/** The account's jobs by their Idempotency-Keys. */
const keyedJobs = (jobs: JobStore, accountId: number): KeyedCreations<IdempotencyRecord, StoredJob> => ({
  what: 'video',
  notFoundName: 'Job',
  earlier: (keyHash, now) => jobs.getIdempotency(accountId, keyHash, now),
  made: (earlier) => jobs.get(accountId, earlier.job_id),
});

/**
 * What makes two requests "the same": the request as understood (so JSON `5` and form `"5"`, or an
 * omitted default and the default spelled out, agree) and the bytes of any file, not the framing; a
 * direct upload by its id (it can be used once, so its id stands for its bytes).
 */
async function idempotencyClaimOf(input: CreateVideoJobInput): Promise<IdempotencyClaim | undefined> {
  if (!input.idempotencyKey) return undefined;
  return { keyHash: sha256(input.idempotencyKey), requestHash: await requestHash(input.request, input.referenceVideo) };
}

async function requestHash(request: VideoRequest, referenceVideo: SentFile | undefined): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(request));
  if (referenceVideo && 'uploadId' in referenceVideo) {
    hash.update(`\0upload:reference_video\0${referenceVideo.uploadId}`);
  } else if (referenceVideo) {
    hash.update('\0file:reference_video\0');
    for await (const chunk of createReadStream(referenceVideo.path)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
