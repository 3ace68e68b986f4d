/**
 * Video jobs: POST /videos, GET /videos/jobs/{id}, approve and regenerate. The endpoints check and
 * record; the state machine does the work. A job's allowance unit is written in the same transaction
 * as the job (or its move to the next round), so a request never holds a unit it must remember to
 * give back; an uploaded clip is removed when the write that would use it does not happen.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import { readBody, type ParsedBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam } from '#http/params';
import { accepted, ok } from '#http/respond';
import { AppError, badRequest, conflict, notFound } from '#domain/errors';
import {
  approveVideoInput,
  createVideoInput,
  regenerateChangesOf,
  regenerateVideoInput,
  videoRequestOf,
  type VideoRequest,
} from '#domain/schemas/video';
import {
  assertCanApprove,
  assertCanRegenerate,
  chargeNumberOfJob,
  chargeNumberOfRegeneration,
  JOB_STAGES,
  jobObjectKeys,
  jobView,
  type Job,
} from '#domain/jobs';
import { billingPeriodOf } from '#domain/billing-period';
import { planOf } from '#domain/plans';
import { REFERENCE_VIDEO_MAX_BYTES } from '#domain/uploads';
import { getAccount } from '#adapters/dynamodb/accounts';
import { getProduct } from '#adapters/dynamodb/products';
import { getAvatar } from '#adapters/dynamodb/avatars';
import { getReaction } from '#adapters/dynamodb/reactions';
import type { ChargeRef, Reservation } from '#ports/allowance-ledger';
import type { JobChanges, JobStore } from '#ports/job-store';
import type { StoredJob } from '#domain/job-execution';
import type { JobDecision } from '#domain/job-execution';
import { deleteKeys, playbackUrl, putFile } from '#adapters/s3/blob-store';
import { newSeed } from '#adapters/engines/seeded-random';
import { inspectReferenceVideo, referenceContentType } from '#media/reference-video';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';

const REFERENCE_FILE = { reference_video: { maxBytes: REFERENCE_VIDEO_MAX_BYTES, label: 'reference_video' } };
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

async function present(job: Job) {
  const preview = job.status === 'preview_ready' && job.preview ? await playbackUrl(job.preview.key) : undefined;
  return jobView(job, preview);
}

const getJobOperation: Operation = async (request) => {
  const job = await request.deps.jobs.get(request.principal.accountId, idParam(request));
  if (!job) throw notFound('Job');
  return ok(await present(job));
};

const create: Operation = async (request) => {
  const idempotencyKey = idempotencyKeyOf(request);
  const body = await readBody(request.event, { accept: ['json', 'form', 'multipart'], files: REFERENCE_FILE });
  try {
    const input = parseInput(createVideoInput, body.fields, 'video request');
    const upload = body.files.reference_video;
    const videoRequest = videoRequestOf(input, upload !== undefined);
    const accountId = request.principal.accountId;
    const jobs = request.deps.jobs;

    const idempotency = idempotencyKey ? { keyHash: sha256(idempotencyKey), requestHash: await requestHash(videoRequest, body) } : undefined;
    if (idempotency) {
      const earlier = await jobs.getIdempotency(accountId, idempotency.keyHash);
      if (earlier) return accepted(await present(await sameRequestJob(jobs, accountId, earlier, idempotency.requestHash)));
    }

    await checkReferencedRecords(accountId, videoRequest);
    const reference = upload ? await inspectReferenceVideo(upload.path) : undefined;

    const now = new Date();
    const jobId = await jobs.newJobId();
    const unit = await reservationOf(accountId, { accountId, jobId, chargeNumber: chargeNumberOfJob() }, now);
    const referenceKey = upload && reference ? jobObjectKeys(accountId, jobId, 0).reference : null;
    const job = newJob(accountId, jobId, videoRequest, referenceKey, now);
    const dropUpload = () => (referenceKey ? deleteKeys([referenceKey]).catch(() => undefined) : Promise.resolve());

    if (upload && referenceKey && reference) await putFile(referenceKey, upload.path, referenceContentType(reference.container));
    // The job, its Idempotency-Key and its unit are written together: none exists without the others.
    const written = await jobs.create(job, idempotency, unit, now).catch(async (error) => {
      await dropUpload();
      throw error;
    });
    if (!written.written) {
      // A concurrent request with the same key won; this one wrote nothing and answers with its job.
      await dropUpload();
      const earlier = idempotency && (await jobs.getIdempotency(accountId, idempotency.keyHash));
      if (!idempotency || !earlier) throw conflict('A request with this Idempotency-Key is being settled; retry in a moment');
      return accepted(await present(await sameRequestJob(jobs, accountId, earlier, idempotency.requestHash)));
    }
    try {
      await request.deps.jobRunner.start({ account_id: accountId, job_id: jobId, job: { mode: job.mode, method: job.method } });
    } catch (error) {
      // Undone only while the job has not moved: an execution that did start owns it from then on.
      const undone = await jobs.withdrawCreated(accountId, jobId, idempotency?.keyHash, unit);
      if (!undone) return accepted(await present((await jobs.get(accountId, jobId)) ?? job));
      await dropUpload();
      throw new AppError('upstream_unavailable', 'The job could not be started; nothing was charged. Retry in a moment', {
        cause: error,
        headers: { 'retry-after': '5' },
      });
    }
    return accepted(await present(job));
  } finally {
    await body.cleanup();
  }
};

const approve: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const jobId = idParam(request);
  const body = await readBody(request.event, { accept: ['json', 'form'] });
  const input = parseInput(approveVideoInput, body.fields, 'approve request');
  const jobs = request.deps.jobs;
  const job = await jobs.get(accountId, jobId);
  if (!job) throw notFound('Job');
  assertCanApprove(job);
  const token = pendingToken(job);
  const moved = await jobs.update(
    accountId,
    jobId,
    {
      status: 'processing',
      stage: 'composing',
      progress: Math.max(job.progress, JOB_STAGES.composing),
      task_token: null,
      resume_at: 'Compose',
      ...(input.hook_text !== undefined ? { hook_text: input.hook_text } : {}),
      ...(input.hook_position !== undefined ? { hook_position: input.hook_position } : {}),
      ...(input.hook_size !== undefined ? { hook_size: input.hook_size } : {}),
    },
    { statusIn: ['preview_ready'], taskToken: token },
  );
  // Another approve or regenerate moved it first: this one must not resume the machine a second time.
  if (!moved) throw conflict(NOT_WAITING);
  await handOver(request.deps.jobRunner, token, { action: 'approve' }, () => jobs.restore(job, { statusIn: ['processing'], taskToken: null, regenerations: job.regenerations }));
  return accepted(await present(moved));
};

const regenerate: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const jobId = idParam(request);
  const body = await readBody(request.event, { accept: ['json', 'form', 'multipart'], files: REFERENCE_FILE });
  try {
    const input = parseInput(regenerateVideoInput, body.fields, 'regenerate request');
    const upload = body.files.reference_video;
    const jobs = request.deps.jobs;
    const job = await jobs.get(accountId, jobId);
    if (!job) throw notFound('Job');
    assertCanRegenerate(job);
    const changes = regenerateChangesOf(job.method, input, upload !== undefined);
    if (changes.avatarId !== undefined) await requireReadyAvatar(accountId, changes.avatarId);
    const reference = upload ? await inspectReferenceVideo(upload.path) : undefined;
    const token = pendingToken(job);

    const now = new Date();
    const round = job.regenerations + 1;
    const unit = await reservationOf(accountId, { accountId, jobId, chargeNumber: chargeNumberOfRegeneration(job.regenerations) }, now);
    const referenceKey = upload && reference ? jobObjectKeys(accountId, jobId, round).reference : undefined;
    const dropUpload = () => (referenceKey ? deleteKeys([referenceKey]).catch(() => undefined) : Promise.resolve());
    if (upload && referenceKey && reference) await putFile(referenceKey, upload.path, referenceContentType(reference.container));

    const nextRound: JobChanges = {
      status: 'queued',
      stage: 'queued',
      regenerations: round,
      seed: newSeed(),
      reaction: null,
      preview: null,
      preview_expires_at: null,
      task_token: null,
      resume_at: 'GenerateReaction',
      ...(changes.prompt !== undefined ? { prompt: changes.prompt } : {}),
      ...(changes.avatarId !== undefined ? { avatar_id: changes.avatarId } : {}),
      ...(changes.reference?.source === 'link' ? { video_source: 'link' as const, reference_url: changes.reference.url, reference_key: null } : {}),
      ...(changes.reference?.source === 'upload' ? { video_source: 'upload' as const, reference_url: null, reference_key: referenceKey! } : {}),
    };
    // The move to the next round and its unit are one write: of N concurrent regenerates exactly one
    // moves the job and reserves; the others write nothing (409).
    const moved = await jobs.startRound(accountId, jobId, nextRound, { statusIn: ['preview_ready'], taskToken: token }, unit, now).catch(
      async (error) => {
        await dropUpload();
        throw error;
      },
    );
    if (!moved) {
      await dropUpload();
      throw conflict(NOT_WAITING);
    }
    await handOver(request.deps.jobRunner, token, { action: 'regenerate', regenerations: round }, async () => {
      const undone = await jobs.restore(job, { statusIn: ['queued'], taskToken: null, regenerations: round }, unit);
      if (undone) await dropUpload();
      return undone;
    });
    return accepted(await present((await jobs.get(accountId, jobId)) ?? job));
  } finally {
    await body.cleanup();
  }
};

const NOT_WAITING = 'The job is no longer at preview_ready (it was approved or regenerated meanwhile)';

async function reservationOf(accountId: number, ref: ChargeRef, now: Date): Promise<Reservation> {
  const account = await getAccount(accountId);
  if (!account) throw notFound('Account');
  return { ref, period: billingPeriodOf(now).id, limit: planOf(account.plan).monthlyVideos };
}

function newJob(accountId: number, id: number, request: VideoRequest, referenceKey: string | null, now: Date): StoredJob {
  const at = now.toISOString();
  return {
    id,
    account_id: accountId,
    status: 'queued',
    stage: 'queued',
    progress: 0,
    method: request.method,
    mode: request.mode,
    product_id: request.productId,
    avatar_id: request.avatarId,
    reaction_id: request.reactionId,
    prompt: request.prompt,
    video_source: request.videoSource,
    reference_url: request.referenceUrl,
    reference_key: referenceKey,
    hook_text: request.hookText,
    hook_position: request.hookPosition,
    hook_size: request.hookSize,
    seed: newSeed(),
    regenerations: 0,
    charged_units: 0,
    reaction: null,
    preview: null,
    preview_expires_at: null,
    video_id: null,
    error: null,
    created_at: at,
    updated_at: at,
    task_token: null,
    resume_at: 'Start',
    output: null,
  };
}

/** Foreign or unknown ids in the body are 404 naming the field; inputs not usable yet are 409. */
async function checkReferencedRecords(accountId: number, request: VideoRequest): Promise<void> {
  const product = await getProduct(accountId, request.productId);
  if (!product) throw notFound(`product_id: Product ${request.productId}`);
  if (product.demo?.status === 'processing') {
    throw conflict(`The demo video of product ${product.id} is still being prepared; retry when its demo_video.status is ready`);
  }
  if (product.demo?.status === 'failed') {
    throw conflict(`The demo video of product ${product.id} could not be processed (${product.demo.error?.message ?? 'unknown error'}); create the product again with another demo`);
  }
  if (request.avatarId !== null) await requireReadyAvatar(accountId, request.avatarId);
  if (request.reactionId !== null && !(await getReaction(accountId, request.reactionId))) {
    throw notFound(`reaction_id: Saved reaction ${request.reactionId}`);
  }
}

async function requireReadyAvatar(accountId: number, avatarId: number): Promise<void> {
  const avatar = await getAvatar(accountId, avatarId);
  if (!avatar) throw notFound(`avatar_id: Avatar ${avatarId}`);
  if (avatar.status === 'processing') throw conflict(`Avatar ${avatarId} is still being generated; retry when its status is ready`);
  if (avatar.status === 'failed') throw conflict(`Avatar ${avatarId} failed to generate; create another avatar`);
}

function pendingToken(job: StoredJob): string {
  // preview_ready is shown by the same write that stores the token, so a missing one is a bug.
  if (!job.task_token) throw conflict('The job is not waiting for a decision yet; retry in a moment');
  return job.task_token;
}

/**
 * Sends the decision to the waiting execution. When the runner cannot be reached the job is put back
 * at preview_ready with its token (and the request's unit taken back), so the client can retry;
 * without that the job would wait, unreachable, until its preview expired.
 */
async function handOver(runner: JobRunner, token: string, decision: JobDecision, undo: () => Promise<boolean>): Promise<void> {
  try {
    await runner.sendDecision(token, decision);
  } catch (error) {
    // The wait ended (the preview expired) between our read and now; the machine fails the job itself.
    if (error instanceof TaskTokenInvalid) throw conflict('The preview is no longer waiting for a decision (it expired); create a new job');
    const undone = await undo();
    throw new AppError(
      'upstream_unavailable',
      undone
        ? 'The decision could not be handed to the job pipeline; the job is back at preview_ready and nothing was charged. Retry in a moment'
        : 'The decision could not be confirmed by the job pipeline; GET the job to see whether it moved',
      { cause: error, headers: { 'retry-after': '5' } },
    );
  }
}

function idempotencyKeyOf(request: AuthenticatedRequest): string | undefined {
  const raw = request.event.headers?.['idempotency-key'];
  if (raw === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(raw)) throw badRequest('Idempotency-Key must be 1-255 visible ASCII characters (a UUID is a good choice)');
  return raw;
}

async function sameRequestJob(jobs: JobStore, accountId: number, earlier: { job_id: number; request_hash: string }, requestHash: string): Promise<StoredJob> {
  if (earlier.request_hash !== requestHash) {
    throw conflict('This Idempotency-Key was already used with a different request; use a new key for a new video');
  }
  const job = await jobs.get(accountId, earlier.job_id);
  if (!job) throw notFound('Job');
  return job;
}

/**
 * What makes two requests "the same": the request as understood (so JSON `5` and form `"5"`, or an
 * omitted default and the default spelled out, agree) and the bytes of any file, not the framing.
 */
async function requestHash(request: VideoRequest, body: ParsedBody): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(request));
  for (const name of Object.keys(body.files).sort()) {
    hash.update(`\0file:${name}\0`);
    for await (const chunk of createReadStream(body.files[name]!.path)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const videoJobOperations = { create, getJob: getJobOperation, approve, regenerate };
