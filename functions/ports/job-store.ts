/**
 * Video job records and their Idempotency-Key records. Every status change is conditional on the
 * status it leaves, so two writers (a retried step, a duplicate approve) cannot both move a job; the
 * loser learns it lost. The writes that also reserve an allowance unit are all or nothing: a job
 * never exists without its unit, nor a unit without its job.
 */
import type { VideoBatch } from '#domain/batches';
import type { JobStatus } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { Video } from '#domain/video';
import type { WebhookEvent } from '#domain/webhooks';
import type { ChargeRef, Reservation } from './allowance-ledger';

export interface IdempotencyRecord {
  job_id: number;
  request_hash: string;
}

/** A batch's Idempotency-Key: its own records, so a key names a job or a batch, never both. */
export interface BatchIdempotencyRecord {
  batch_id: number;
  request_hash: string;
}

export interface IdempotencyClaim {
  keyHash: string;
  requestHash: string;
}

export type JobChanges = Partial<Omit<StoredJob, 'id' | 'account_id' | 'created_at'>>;

export interface JobCondition {
  /** The write applies only while the job has one of these statuses. */
  statusIn?: readonly JobStatus[];
  /** ...and only while this task token is the pending one (null: while none is). */
  taskToken?: string | null;
  /** ...and only while the job is at this round. */
  regenerations?: number;
}

/** `idempotency_taken`: another request holds the Idempotency-Key; nothing was written. */
export type CreateJobOutcome = { written: true } | { written: false; reason: 'idempotency_taken' };

export interface ActiveJobRef {
  accountId: number;
  jobId: number;
}

/** A job the sweeper should look at; `mark` is the watch the store read (domain/job-watch.ts), for `quiet`. */
export interface SweepCandidate extends ActiveJobRef {
  mark: string;
}

export interface SweepCutoffs {
  /** Jobs written before this and maybe never started. */
  unstartedBefore: Date;
  /** Jobs whose decision was recorded before this and maybe never received. */
  handedBefore: Date;
}

/** One slice of an account's jobs, newest first; `nextBefore` continues the list (null: nothing older). */
export interface JobSlice {
  items: StoredJob[];
  nextBefore: number | null;
}

/** What finishing a job settles: the units the job records as charged, and the unit to charge now, if any. */
export interface FinishSettlement {
  chargedUnits: number;
  charge?: ChargeRef;
}

export interface JobStore {
  /** A new job id: unique, and above every earlier one of the account (its jobs list newest first by id). */
  newJobId(accountId: number): Promise<number>;
  get(accountId: number, jobId: number): Promise<StoredJob | undefined>;
  /** The job's Idempotency-Key record; one past its day (at `now`) counts as gone. */
  getIdempotency(accountId: number, keyHash: string, now?: Date): Promise<IdempotencyRecord | undefined>;
  /**
   * Writes the new job, its Idempotency-Key (if any) and its first allowance unit together. A full
   * allowance throws AppError allowance_exhausted; the unit already existing throws LedgerViolation.
   */
  create(job: StoredJob, idempotency: IdempotencyClaim | undefined, unit: Reservation, now: Date): Promise<CreateJobOutcome>;
  newBatchId(accountId: number): Promise<number>;
  getBatch(accountId: number, batchId: number): Promise<VideoBatch | undefined>;
  /** The batch's Idempotency-Key record; one past its day (at `now`) counts as gone. */
  getBatchIdempotency(accountId: number, keyHash: string, now?: Date): Promise<BatchIdempotencyRecord | undefined>;
  /**
   * Writes the batch, every one of its jobs, their allowance units (one each, all in one period under
   * one limit) and its Idempotency-Key (if any) together: all of them or nothing. An allowance that
   * cannot cover every unit throws AppError allowance_exhausted.
   */
  createBatch(batch: VideoBatch, jobs: StoredJob[], idempotency: IdempotencyClaim | undefined, units: Reservation[], now: Date): Promise<CreateJobOutcome>;
  /**
   * Undoes `create` for a job that could not be started: the job (only while still queued), its key and
   * its unit go together. False when the job moved meanwhile (an execution owns it) and nothing changed.
   */
  withdrawCreated(accountId: number, jobId: number, idempotencyKeyHash: string | undefined, unit: Reservation): Promise<boolean>;
  /**
   * Applies changes if the condition holds; the updated job, or undefined when the job is gone or the
   * condition failed (someone else moved it first). A webhook `event` is written in the same write.
   */
  update(accountId: number, jobId: number, changes: JobChanges, condition?: JobCondition, now?: Date, event?: WebhookEvent): Promise<StoredJob | undefined>;
  /**
   * Moves the job to its next round and reserves that round's unit, together: of concurrent
   * regenerates exactly one writes; the others get false. A full allowance throws as in `create`.
   */
  startRound(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, unit: Reservation, now: Date): Promise<boolean>;
  /**
   * Puts the job back exactly as `snapshot` if it is still as `condition` says, and with `withdraw`
   * takes that unit back in the same write: the undo of a decision the runner never received.
   */
  restore(snapshot: StoredJob, condition: JobCondition, withdraw?: Reservation): Promise<boolean>;
  /**
   * Records the finished video and moves the job (still processing) to done with its charged units,
   * together (and a webhook `event`), and settles `settlement.charge` (an auto job's unit) as charged
   * in the same write: a job is never charged without being done, nor done without its charge. False
   * when the job is no longer processing or the unit was settled meanwhile, and then nothing is
   * written. A unit already charged (by a run before this write existed) is left as it is; a released
   * or missing one throws LedgerViolation, and nothing is written.
   */
  finishWithVideo(job: StoredJob, video: Video, settlement: FinishSettlement, now?: Date, event?: WebhookEvent): Promise<boolean>;
  /**
   * The account's jobs newest first, at most `limit`, only those older than job `beforeId` when given:
   * each slice reads about `limit` items however many jobs the account has.
   */
  listRecent(accountId: number, limit: number, beforeId?: number): Promise<JobSlice>;
  /** Every job not yet done or failed, across accounts, by id (oldest first). */
  listActive(): Promise<ActiveJobRef[]>;
  /**
   * The jobs in flight the sweeper must look at, by their watch (domain/job-watch.ts): handed a
   * decision before `handedBefore`, first, then unstarted since before `unstartedBefore`. Read as the
   * caller goes, so a sweep out of time stops reading; a job quiet, or watched since later, is not among them.
   */
  sweepCandidates(cutoffs: SweepCutoffs): AsyncIterable<SweepCandidate>;
  /**
   * The sweeper looked at `job` (the candidate as it read it) and found nothing to do: it leaves the
   * candidates until a write watches it again. False, and nothing written, when its watch changed
   * since it was read, or it ended.
   */
  quiet(candidate: SweepCandidate, job: StoredJob): Promise<boolean>;
}
