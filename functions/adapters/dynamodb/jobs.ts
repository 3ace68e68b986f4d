/**
 * Video job records on DynamoDB. Status changes are conditional updates on the status they leave;
 * the writes that also move the allowance are one transaction with the ledger's items
 * (job-items.ts builds them). Reads are job-queries.ts'.
 */
import type { StoredJob } from '#domain/job-execution';
import type { Video } from '#domain/video';
import type { WebhookEvent } from '#domain/webhooks';
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
import { allocateShardedId } from './ids';
import type { DynamoTable } from './table';
import { transact } from './transactions';
import { DynamoAllowanceLedger } from './allowance-ledger';
import { DynamoVideoLibrary } from './videos';
import { outboxPut, updateWithEvent } from './webhook-outbox';
import { IDEMPOTENCY_ITEM, deleteNewJobItems, finishedJobUpdate, jobUpdate, newBatchItems, newJobItems, restoreJobItem } from './job-items';
import { DynamoJobQueries, toJob } from './job-queries';
import { quietJob, sweepCandidates } from './active-jobs';

export class DynamoJobStore implements JobStore {
  private readonly ledger: DynamoAllowanceLedger;
  private readonly videos: DynamoVideoLibrary;
  private readonly queries: DynamoJobQueries;

  constructor(private readonly table: DynamoTable) {
    this.ledger = new DynamoAllowanceLedger(table);
    this.videos = new DynamoVideoLibrary(table);
    this.queries = new DynamoJobQueries(table);
  }

  newJobId(accountId: number): Promise<number> {
    return allocateShardedId(this.table, 'job', accountId);
  }

  newBatchId(accountId: number): Promise<number> {
    return allocateShardedId(this.table, 'batch', accountId);
  }

  get(accountId: number, jobId: number): Promise<StoredJob | undefined> {
    return this.queries.get(accountId, jobId);
  }

  listRecent(accountId: number, limit: number, beforeId?: number): Promise<JobSlice> {
    return this.queries.listRecent(accountId, limit, beforeId);
  }

  getIdempotency(accountId: number, keyHash: string, now = new Date()): Promise<IdempotencyRecord | undefined> {
    return this.queries.getIdempotency(accountId, keyHash, now);
  }

  getBatch(accountId: number, batchId: number): Promise<VideoBatch | undefined> {
    return this.queries.getBatch(accountId, batchId);
  }

  getBatchIdempotency(accountId: number, keyHash: string, now = new Date()): Promise<BatchIdempotencyRecord | undefined> {
    return this.queries.getBatchIdempotency(accountId, keyHash, now);
  }

  listActive(): Promise<ActiveJobRef[]> {
    return this.queries.listActive();
  }

  sweepCandidates(cutoffs: SweepCutoffs): AsyncIterable<SweepCandidate> {
    return sweepCandidates(this.table, cutoffs);
  }

  quiet(candidate: SweepCandidate, job: StoredJob): Promise<boolean> {
    return quietJob(this.table, candidate, job);
  }

  async create(job: StoredJob, idempotency: IdempotencyClaim | undefined, unit: Reservation, now: Date): Promise<CreateJobOutcome> {
    const outcome = await this.ledger.reserveWith(unit, newJobItems(this.table, job, idempotency), now);
    if (outcome.written) return outcome;
    if (idempotency && outcome.failed.includes(IDEMPOTENCY_ITEM)) return { written: false, reason: 'idempotency_taken' };
    throw new Error(`job ${job.id} could not be written`);
  }

  async createBatch(batch: VideoBatch, jobs: StoredJob[], idempotency: IdempotencyClaim | undefined, units: Reservation[], now: Date): Promise<CreateJobOutcome> {
    const outcome = await this.ledger.reserveAllWith(units, newBatchItems(this.table, batch, jobs, idempotency), now);
    if (outcome.written) return outcome;
    if (idempotency && outcome.failed.includes(IDEMPOTENCY_ITEM)) return { written: false, reason: 'idempotency_taken' };
    throw new Error(`batch ${batch.id} could not be written`);
  }

  async withdrawCreated(accountId: number, jobId: number, idempotencyKeyHash: string | undefined, unit: Reservation): Promise<boolean> {
    return (await this.ledger.withdrawWith(unit, deleteNewJobItems(this.table, accountId, jobId, idempotencyKeyHash))).written;
  }

  async update(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition = {}, now = new Date(), event?: WebhookEvent): Promise<StoredJob | undefined> {
    const item = await updateWithEvent(this.table, jobUpdate(this.table, accountId, jobId, changes, condition, now), event);
    return item ? toJob(item) : undefined;
  }

  async startRound(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, unit: Reservation, now: Date): Promise<boolean> {
    return (await this.ledger.reserveWith(unit, [{ Update: jobUpdate(this.table, accountId, jobId, changes, condition, now) }], now)).written;
  }

  async restore(snapshot: StoredJob, condition: JobCondition, withdraw?: Reservation): Promise<boolean> {
    const put = restoreJobItem(this.table, snapshot, condition);
    const outcome = withdraw ? await this.ledger.withdrawWith(withdraw, [put]) : await transact([put], this.table.client);
    return outcome.written;
  }

  async finishWithVideo(job: StoredJob, video: Video, { chargedUnits, charge }: FinishSettlement, now = new Date(), event?: WebhookEvent): Promise<boolean> {
    const chargeItems = charge ? await this.ledger.chargeItems(charge, now) : [];
    // The video's counter (meta.total of GET /videos) moves in the same transaction (collection-counter.ts).
    return this.videos.putNewWith(video, finishedJobUpdate(this.table, job, video, chargedUnits, now), ...chargeItems, ...(event ? [outboxPut(this.table, event)] : []));
  }
}
