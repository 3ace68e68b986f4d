/**
 * Video jobs in memory, with the DynamoDB store's conditions: an update applies only while its
 * condition holds (else undefined, nothing written), the writes that reserve a unit go through the
 * ledger double all or nothing, and a job leaves the active list when it becomes final. What the
 * sweeper watches each job for follows the same rules (domain/job-watch.ts).
 */
import { isFinal, JOB_STAGES } from '#domain/jobs';
import { watchAfter, watchOf, type JobWatch } from '#domain/job-watch';
import type { StoredJob } from '#domain/job-execution';
import type { Video } from '#domain/video';
import type { VideoBatch } from '#domain/batches';
import type { Reservation } from '#ports/allowance-ledger';
import type {
  ActiveJobRef,
  BatchIdempotencyRecord,
  CreateJobOutcome,
  FinishSettlement,
  IdempotencyClaim,
  IdempotencyRecord,
  JobChanges,
  JobCondition,
  JobSlice,
  JobStore,
  SweepCandidate,
  SweepCutoffs,
} from '#ports/job-store';
import { MemoryAllowanceLedger } from './allowance-ledger';
import { MemoryVideoLibrary } from './video-library';
const { max } = Math;

const jobKey = (accountId: number, jobId: number) => `${accountId}/${jobId}`;
const copy = (job: StoredJob): StoredJob => structuredClone(job);
const markOf = (watch: JobWatch) => JSON.stringify(watch);

export class MemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, StoredJob>();
  private readonly watches = new Map<string, JobWatch>();
  private readonly keys = new Map<string, IdempotencyRecord & { expiresAtMs: number }>();
  private lastId = 0;
  private readonly batches = new Map<string, VideoBatch>();
  private readonly batchKeys = new Map<string, BatchIdempotencyRecord & { expiresAtMs: number }>();
  private lastBatchId = 0;

  constructor(
    readonly ledger = new MemoryAllowanceLedger(),
    readonly videos = new MemoryVideoLibrary(),
  ) {}

  /** Puts a job as it is (a test's starting point), replacing any with its id. */
  put(job: StoredJob): StoredJob {
    this.jobs.set(jobKey(job.account_id, job.id), copy(job));
    this.watch(job.account_id, job.id, watchOf(job));
    this.lastId = max(this.lastId, job.id);
    return copy(job);
  }

  async newJobId(): Promise<number> {
    return ++this.lastId;
  }

  async get(accountId: number, jobId: number): Promise<StoredJob | undefined> {
    const job = this.jobs.get(jobKey(accountId, jobId));
    return job && copy(job);
  }

  async getIdempotency(accountId: number, keyHash: string, now = new Date()): Promise<IdempotencyRecord | undefined> {
    const record = this.keys.get(`${accountId}/${keyHash}`);
    if (!record || record.expiresAtMs < now.getTime()) return undefined;
    return { job_id: record.job_id, request_hash: record.request_hash };
  }

  async create(job: StoredJob, idempotency: IdempotencyClaim | undefined, unit: Reservation, now: Date): Promise<CreateJobOutcome> {
    if (this.jobs.has(jobKey(job.account_id, job.id))) throw new Error(`job ${job.id} could not be written`);
    if (idempotency && this.keys.has(`${job.account_id}/${idempotency.keyHash}`)) return { written: false, reason: 'idempotency_taken' };
    this.ledger.reserve(unit, now);
    this.put(job);
    if (idempotency) {
      this.keys.set(`${job.account_id}/${idempotency.keyHash}`, {
        job_id: job.id,
        request_hash: idempotency.requestHash,
        expiresAtMs: Date.parse(job.created_at) + 24 * 3600 * 1000,
      });
    }
    return { written: true };
  }

  async newBatchId(): Promise<number> {
    return ++this.lastBatchId;
  }

  async getBatch(accountId: number, batchId: number): Promise<VideoBatch | undefined> {
    const batch = this.batches.get(jobKey(accountId, batchId));
    return batch && structuredClone(batch);
  }

  async getBatchIdempotency(accountId: number, keyHash: string, now = new Date()): Promise<BatchIdempotencyRecord | undefined> {
    const record = this.batchKeys.get(`${accountId}/${keyHash}`);
    if (!record || record.expiresAtMs < now.getTime()) return undefined;
    return { batch_id: record.batch_id, request_hash: record.request_hash };
  }

  async createBatch(batch: VideoBatch, jobs: StoredJob[], idempotency: IdempotencyClaim | undefined, units: Reservation[], now: Date): Promise<CreateJobOutcome> {
    if (this.batches.has(jobKey(batch.account_id, batch.id)) || jobs.some((job) => this.jobs.has(jobKey(job.account_id, job.id)))) {
      throw new Error(`batch ${batch.id} could not be written`);
    }
    if (idempotency && this.batchKeys.has(`${batch.account_id}/${idempotency.keyHash}`)) return { written: false, reason: 'idempotency_taken' };
    this.ledger.reserveAll(units, now);
    this.batches.set(jobKey(batch.account_id, batch.id), structuredClone(batch));
    for (const job of jobs) this.put(job);
    if (idempotency) {
      this.batchKeys.set(`${batch.account_id}/${idempotency.keyHash}`, {
        batch_id: batch.id,
        request_hash: idempotency.requestHash,
        expiresAtMs: Date.parse(batch.created_at) + 24 * 3600 * 1000,
      });
    }
    return { written: true };
  }

  async withdrawCreated(accountId: number, jobId: number, idempotencyKeyHash: string | undefined, unit: Reservation): Promise<boolean> {
    if (this.jobs.get(jobKey(accountId, jobId))?.status !== 'queued') return false;
    if (!this.ledger.withdraw(unit)) return false;
    this.jobs.delete(jobKey(accountId, jobId));
    this.watches.delete(jobKey(accountId, jobId));
    if (idempotencyKeyHash && this.keys.get(`${accountId}/${idempotencyKeyHash}`)?.job_id === jobId) this.keys.delete(`${accountId}/${idempotencyKeyHash}`);
    return true;
  }

  async update(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition = {}, now = new Date()): Promise<StoredJob | undefined> {
    const job = this.jobs.get(jobKey(accountId, jobId));
    if (!job || !holds(job, condition)) return undefined;
    return this.apply(job, changes, now);
  }

  async startRound(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, unit: Reservation, now: Date): Promise<boolean> {
    const job = this.jobs.get(jobKey(accountId, jobId));
    if (!job || !holds(job, condition)) return false;
    this.ledger.reserve(unit, now);
    this.apply(job, changes, now);
    return true;
  }

  async restore(snapshot: StoredJob, condition: JobCondition, withdraw?: Reservation): Promise<boolean> {
    const job = this.jobs.get(jobKey(snapshot.account_id, snapshot.id));
    if (!job || !holds(job, condition)) return false;
    if (withdraw && !this.ledger.withdraw(withdraw)) return false;
    this.put(snapshot);
    return true;
  }

  async finishWithVideo(job: StoredJob, video: Video, { chargedUnits, charge }: FinishSettlement, now = new Date()): Promise<boolean> {
    const current = this.jobs.get(jobKey(job.account_id, job.id));
    if (current?.status !== 'processing') return false;
    if (charge) {
      const unit = await this.ledger.entry(charge);
      // As the DynamoDB store: a released or missing unit refuses before anything is written (charge() throws and changes nothing).
      if (unit?.state !== 'reserved' && unit?.state !== 'charged') await this.ledger.charge(charge);
    }
    if (!this.videos.putNew(video)) return false;
    if (charge) await this.ledger.charge(charge);
    this.apply(current, {
      status: 'done',
      stage: 'done',
      progress: JOB_STAGES.done,
      video_id: video.id,
      charged_units: chargedUnits,
      resume_at: null,
      task_token: null,
      output: null,
    }, now);
    return true;
  }

  async listRecent(accountId: number, limit: number, beforeId?: number): Promise<JobSlice> {
    const older = [...this.jobs.values()]
      .filter((job) => job.account_id === accountId && (beforeId === undefined || job.id < beforeId))
      .sort((a, b) => b.id - a.id);
    const items = older.slice(0, limit).map(copy);
    return { items, nextBefore: older.length > limit ? items[items.length - 1]!.id : null };
  }

  async listActive(): Promise<ActiveJobRef[]> {
    return [...this.jobs.values()]
      .filter((job) => !isFinal(job.status))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
      .map((job) => ({ accountId: job.account_id, jobId: job.id }));
  }

  async *sweepCandidates({ unstartedBefore, handedBefore }: SweepCutoffs): AsyncGenerator<SweepCandidate> {
    const watched = [...this.watches.entries()].map(([key, watch]) => ({ watch, since: 'since' in watch ? watch.since : '', job: this.jobs.get(key)! }));
    const due = (kind: JobWatch['kind'], before: Date) =>
      watched.filter(({ watch, since }) => watch.kind === kind && since < before.toISOString()).sort((a, b) => a.since.localeCompare(b.since));
    for (const { watch, job } of [...due('handover', handedBefore), ...due('unstarted', unstartedBefore)]) {
      yield { accountId: job.account_id, jobId: job.id, mark: markOf(watch) };
    }
  }

  async quiet(candidate: SweepCandidate): Promise<boolean> {
    const watch = this.watches.get(jobKey(candidate.accountId, candidate.jobId));
    if (!watch || markOf(watch) !== candidate.mark) return false;
    this.watches.set(jobKey(candidate.accountId, candidate.jobId), { kind: 'quiet' });
    return true;
  }

  private apply(job: StoredJob, changes: JobChanges, now: Date): StoredJob {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    Object.assign(job, defined, { updated_at: now.toISOString() });
    const watch = watchAfter(changes);
    if (watch !== undefined) this.watch(job.account_id, job.id, watch);
    return copy(job);
  }

  private watch(accountId: number, jobId: number, watch: JobWatch | null): void {
    if (watch) this.watches.set(jobKey(accountId, jobId), watch);
    else this.watches.delete(jobKey(accountId, jobId));
  }
}

function holds(job: StoredJob, condition: JobCondition): boolean {
  if (condition.statusIn && !condition.statusIn.includes(job.status)) return false;
  if (condition.taskToken !== undefined && (job.task_token ?? null) !== condition.taskToken) return false;
  if (condition.regenerations !== undefined && job.regenerations !== condition.regenerations) return false;
  return true;
}
