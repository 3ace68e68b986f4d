/**
 * Video jobs: POST /videos, GET /videos/jobs/{id}, its takes, approve and regenerate, and batches of jobs
 * (POST /videos/batch, GET /videos/batches/{id}). The endpoints check and record
 * (functions/use-cases); the state machine does the work. With `?dry_run=true` create, regenerate and
 * the batch only check and quote (200), through the same checks.
 */
import type { ApiResult, Operation } from '#http/api-types';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf } from '#http/idempotency-key';
import { dryRunParam, idParam, sliceParams } from '#http/params';
import { accepted, ok } from '#http/respond';
import { logger } from '#functions/logger';
import { notFound } from '#domain/errors';
import { approveVideoInput, createVideoInput, regenerateVideoInput, videoRequestOf } from '#domain/schemas/video';
import { presentJob, presentTakes } from '#use-cases/present-records';
import type { BlobStore } from '#ports/blob-store';
import { createVideoBatchInput, videoVariantsOf } from '#domain/schemas/video-batch';
import { batchView } from '#domain/batches';
import { createOrReplayVideoJob, quoteVideoJob, type CreateVideoJobDeps, type QuoteVideoJobDeps } from '#use-cases/create-video-job';
import { createOrReplayVideoBatch, quoteVideoBatch, readVideoBatch, type BatchWithJobs, type CreateVideoBatchDeps, type QuoteVideoBatchDeps } from '#use-cases/create-video-batch';
import { approvePreview, type ApprovePreviewDeps } from '#use-cases/approve-preview';
import { quoteRegeneration, regenerateVideoJob, type QuoteRegenerationDeps, type RegenerateVideoJobDeps } from '#use-cases/regenerate-video-job';
import type { Ports } from '#ports/ports';
import type { SentFile } from '#use-cases/use-upload';

/** What reading and presenting jobs reaches. */
type JobReads = Pick<Ports, 'jobs' | 'blobs'>;

const present = presentJob;

const getJob: Operation<JobReads> = async (request) => {
  const job = await request.deps.jobs.get(request.principal.accountId, idParam(request));
  if (!job) throw notFound('Job');
  return ok(await present(request.deps.blobs, job));
};

const listTakes: Operation<JobReads> = async (request) => {
  const job = await request.deps.jobs.get(request.principal.accountId, idParam(request));
  if (!job) throw notFound('Job');
  return ok(await presentTakes(request.deps.blobs, job));
};

const listJobs: Operation<JobReads> = async (request) => {
  const slice = sliceParams(request);
  const found = await request.deps.jobs.listRecent(request.principal.accountId, slice.limit, slice.before);
  return ok(await Promise.all(found.items.map((job) => present(request.deps.blobs, job))), 200, { limit: slice.limit, next_before: found.nextBefore });
};

const create: Operation<CreateVideoJobDeps & QuoteVideoJobDeps> = async (request) => {
  const dryRun = dryRunParam(request);
  const idempotencyKey = idempotencyKeyOf(request.event);
  const body = await readRouteBody(request);
  try {
    const input = parseInput(createVideoInput, body.fields, 'video request');
    const file = body.files.reference_video;
    const videoRequest = videoRequestOf(input, file !== undefined);
    const jobInput = { accountId: request.principal.accountId, request: videoRequest, idempotencyKey, referenceVideo: referenceVideoOf(file, input.reference_video_upload_id) };
    if (dryRun) return ok(await quoteVideoJob({ ...request.deps, log: logger }, jobInput));
    const { job, replayed } = await createOrReplayVideoJob({ ...request.deps, log: logger }, jobInput);
    return markReplayed(accepted(await present(request.deps.blobs, job)), replayed);
  } finally {
    await body.cleanup();
  }
};

const approve: Operation<ApprovePreviewDeps & JobReads> = async (request) => {
  const body = await readRouteBody(request);
  const changes = parseInput(approveVideoInput, body.fields, 'approve request');
  const job = await approvePreview({ ...request.deps, log: logger }, { accountId: request.principal.accountId, jobId: idParam(request), changes });
  return accepted(await present(request.deps.blobs, job));
};

const regenerate: Operation<RegenerateVideoJobDeps & QuoteRegenerationDeps> = async (request) => {
  const dryRun = dryRunParam(request);
  const body = await readRouteBody(request);
  try {
    const changes = parseInput(regenerateVideoInput, body.fields, 'regenerate request');
    const referenceVideo = referenceVideoOf(body.files.reference_video, changes.reference_video_upload_id);
    const roundInput = { accountId: request.principal.accountId, jobId: idParam(request), changes, referenceVideo };
    if (dryRun) return ok(await quoteRegeneration({ ...request.deps, log: logger }, roundInput));
    const job = await regenerateVideoJob({ ...request.deps, log: logger }, roundInput);
    return accepted(await present(request.deps.blobs, job));
  } finally {
    await body.cleanup();
  }
};

const createBatch: Operation<CreateVideoBatchDeps & QuoteVideoBatchDeps> = async (request) => {
  const dryRun = dryRunParam(request);
  const idempotencyKey = idempotencyKeyOf(request.event);
  const body = await readRouteBody(request);
  const input = parseInput(createVideoBatchInput, body.fields, 'batch request');
  const batchInput = { accountId: request.principal.accountId, productId: input.product_id, variants: videoVariantsOf(input), idempotencyKey };
  if (dryRun) return ok(await quoteVideoBatch({ ...request.deps, log: logger }, batchInput));
  const { batch, replayed } = await createOrReplayVideoBatch({ ...request.deps, log: logger }, batchInput);
  return markReplayed(accepted(await presentBatch(request.deps.blobs, batch)), replayed);
};

const getBatch: Operation<JobReads> = async (request) => {
  const found = await readVideoBatch(request.deps, request.principal.accountId, idParam(request));
  if (!found) throw notFound('Batch');
  return ok(await presentBatch(request.deps.blobs, found));
};

async function presentBatch(blobs: BlobStore, { batch, jobs }: BatchWithJobs) {
  return batchView(batch, await Promise.all(jobs.map((job) => present(blobs, job))));
}

/** An earlier request's answer, given again for its Idempotency-Key, says so. */
const markReplayed = (result: ApiResult, replayed: boolean): ApiResult => (replayed ? { ...result, headers: { ...result.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' } } : result);

/** The clip as a file part on disk or a direct upload's id (the schemas refuse both at once). */
function referenceVideoOf(file: { path: string } | undefined, uploadId: string | undefined): SentFile | undefined {
  if (file) return { path: file.path };
  return uploadId ? { uploadId } : undefined;
}


export const videoJobOperations = { create, listJobs, getJob, listTakes, approve, regenerate, createBatch, getBatch };
