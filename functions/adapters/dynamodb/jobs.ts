/**
 * Video job records on DynamoDB. Status changes are conditional updates on the status they leave;
 * the writes that also move the allowance are one transaction with the ledger's items. Jobs in
 * flight carry the sparse active-jobs index attributes, dropped when they end.
 */
import { GetCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isFinal, JOB_STAGES, type Job } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { Video } from '#domain/video';
import type { WebhookEvent } from '#domain/webhooks';
import type { VideoBatch } from '#domain/batches';
import type { Reservation } from '#ports/allowance-ledger';
import type {
  ActiveJobRef,
  BatchIdempotencyRecord,
  CreateJobOutcome,
  IdempotencyClaim,
  IdempotencyRecord,
  JobChanges,
  JobCondition,
  JobSlice,
  JobStore,
} from '#ports/job-store';
import { GSI1, keys, padId } from './keys';
import { allocateId } from './ids';
import type { DynamoTable } from './table';
import { transact, type TransactItem } from './transactions';
import { DynamoAllowanceLedger } from './allowance-ledger';
import { DynamoVideoLibrary } from './videos';
import { outboxPut, updateWithEvent } from './webhook-outbox';

const activeIndex = (job: Pick<Job, 'id' | 'account_id'>) => ({ gsi1pk: keys.activeJobsIndex, gsi1sk: `${padId(job.id)}#${job.account_id}` });

/** In newJobItems, the Idempotency-Key's Put follows the job's; in createBatch, the batch's. */
const IDEMPOTENCY_ITEM = 1;
/** Keys are remembered for a day, as payment APIs do; the TTL sweeps them afterwards. */
const keyExpiry = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + 24 * 3600;

export class DynamoJobStore implements JobStore {
  private readonly ledger: DynamoAllowanceLedger;
  private readonly videos: DynamoVideoLibrary;

  constructor(private readonly table: DynamoTable) {
    this.ledger = new DynamoAllowanceLedger(table);
    this.videos = new DynamoVideoLibrary(table);
  }

  newJobId(): Promise<number> {
    return allocateId(this.table, 'job');
  }

  async get(accountId: number, jobId: number): Promise<StoredJob | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.job(accountId, jobId), ConsistentRead: true }));
    return out.Item ? toJob(out.Item) : undefined;
  }

  async listRecent(accountId: number, limit: number, beforeId?: number): Promise<JobSlice> {
    if (beforeId !== undefined && beforeId <= 1) return { items: [], nextBefore: null };
    const upper = beforeId === undefined ? `${keys.jobPrefix}${'9'.repeat(padId(0).length)}` : keys.job(accountId, beforeId - 1).sk;
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    // One item past the limit tells whether an older slice exists without another round trip.
    do {
      const out = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
          ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':low': keys.job(accountId, 1).sk, ':high': upper },
          ScanIndexForward: false,
          Limit: limit + 1 - items.length,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(out.Items ?? []));
      startKey = out.LastEvaluatedKey;
    } while (startKey && items.length <= limit);
    const slice = items.slice(0, limit).map(toJob);
    return { items: slice, nextBefore: items.length > limit ? slice[slice.length - 1]!.id : null };
  }

  async getIdempotency(accountId: number, keyHash: string, now = new Date()): Promise<IdempotencyRecord | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.jobIdempotency(accountId, keyHash), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    // An expired key the TTL sweep has not reached yet counts as gone.
    if (Number(out.Item.expires_at) * 1000 < now.getTime()) return undefined;
    return { job_id: out.Item.job_id as number, request_hash: out.Item.request_hash as string };
  }

  async create(job: StoredJob, idempotency: IdempotencyClaim | undefined, unit: Reservation, now: Date): Promise<CreateJobOutcome> {
    const outcome = await this.ledger.reserveWith(unit, this.newJobItems(job, idempotency), now);
    if (outcome.written) return outcome;
    if (idempotency && outcome.failed.includes(IDEMPOTENCY_ITEM)) return { written: false, reason: 'idempotency_taken' };
    throw new Error(`job ${job.id} could not be written`);
  }

  newBatchId(): Promise<number> {
    return allocateId(this.table, 'batch');
  }

  async getBatch(accountId: number, batchId: number): Promise<VideoBatch | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.batch(accountId, batchId), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const { pk: _pk, sk: _sk, type: _type, ...batch } = out.Item;
    return batch as VideoBatch;
  }

  async getBatchIdempotency(accountId: number, keyHash: string, now = new Date()): Promise<BatchIdempotencyRecord | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.batchIdempotency(accountId, keyHash), ConsistentRead: true }),
    );
    if (!out.Item || Number(out.Item.expires_at) * 1000 < now.getTime()) return undefined;
    return { batch_id: out.Item.batch_id as number, request_hash: out.Item.request_hash as string };
  }

  async createBatch(batch: VideoBatch, jobs: StoredJob[], idempotency: IdempotencyClaim | undefined, units: Reservation[], now: Date): Promise<CreateJobOutcome> {
    const writes: TransactItem[] = [
      { Put: { TableName: this.table.name, Item: { ...keys.batch(batch.account_id, batch.id), type: 'batch', ...batch }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    if (idempotency) {
      writes.push({
        Put: {
          TableName: this.table.name,
          Item: {
            ...keys.batchIdempotency(batch.account_id, idempotency.keyHash),
            type: 'batch_idempotency',
            batch_id: batch.id,
            request_hash: idempotency.requestHash,
            created_at: batch.created_at,
            expires_at: keyExpiry(batch.created_at),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
    }
    writes.push(...jobs.flatMap((job) => this.newJobItems(job)));
    const outcome = await this.ledger.reserveAllWith(units, writes, now);
    if (outcome.written) return outcome;
    if (idempotency && outcome.failed.includes(IDEMPOTENCY_ITEM)) return { written: false, reason: 'idempotency_taken' };
    throw new Error(`batch ${batch.id} could not be written`);
  }

  async withdrawCreated(accountId: number, jobId: number, idempotencyKeyHash: string | undefined, unit: Reservation): Promise<boolean> {
    return (await this.ledger.withdrawWith(unit, this.deleteNewJobItems(accountId, jobId, idempotencyKeyHash))).written;
  }

  async update(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition = {}, now = new Date(), event?: WebhookEvent): Promise<StoredJob | undefined> {
    const item = await updateWithEvent(this.table, this.jobUpdate(accountId, jobId, changes, condition, now), event);
    return item ? toJob(item) : undefined;
  }

  async startRound(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, unit: Reservation, now: Date): Promise<boolean> {
    return (await this.ledger.reserveWith(unit, [{ Update: this.jobUpdate(accountId, jobId, changes, condition, now) }], now)).written;
  }

  async restore(snapshot: StoredJob, condition: JobCondition, withdraw?: Reservation): Promise<boolean> {
    const put = this.restoreJobItem(snapshot, condition);
    const outcome = withdraw ? await this.ledger.withdrawWith(withdraw, [put]) : await transact([put], this.table.client);
    return outcome.written;
  }

  finishWithVideo(job: StoredJob, video: Video, chargedUnits: number, now = new Date(), event?: WebhookEvent): Promise<boolean> {
    // The video's counter (meta.total of GET /videos) moves in the same transaction (collection-counter.ts).
    return this.videos.putNewWith(video, {
      Update: {
        TableName: this.table.name,
        Key: keys.job(job.account_id, job.id),
        UpdateExpression:
          'SET #status = :done, stage = :done, progress = :full, video_id = :video, charged_units = :charged, updated_at = :now, ' +
          'resume_at = :null, task_token = :null, #output = :null REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :processing',
        ExpressionAttributeNames: { '#status': 'status', '#output': 'output' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':processing': 'processing',
          ':full': JOB_STAGES.done,
          ':video': video.id,
          ':charged': chargedUnits,
          ':now': now.toISOString(),
          ':null': null,
        },
      },
    }, ...(event ? [outboxPut(this.table, event)] : []));
  }

  async listActive(): Promise<ActiveJobRef[]> {
    const found: ActiveJobRef[] = [];
    const query = {
      TableName: this.table.name,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :active',
      ExpressionAttributeValues: { ':active': keys.activeJobsIndex },
    };
    for await (const out of paginateQuery({ client: this.table.client }, query)) {
      for (const item of out.Items ?? []) found.push({ accountId: item.account_id as number, jobId: item.id as number });
    }
    return found;
  }

  /** The writes that create a job (item 0), and with an Idempotency-Key its record (item 1, refused when another request holds it). */
  newJobItems(job: StoredJob, idempotency?: IdempotencyClaim): TransactItem[] {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.job(job.account_id, job.id), type: 'job', ...activeIndex(job), ...job },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (idempotency) {
      items.push({
        Put: {
          TableName: this.table.name,
          Item: {
            ...keys.jobIdempotency(job.account_id, idempotency.keyHash),
            type: 'job_idempotency',
            job_id: job.id,
            request_hash: idempotency.requestHash,
            created_at: job.created_at,
            expires_at: keyExpiry(job.created_at),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
    }
    return items;
  }

  private deleteNewJobItems(accountId: number, jobId: number, idempotencyKeyHash?: string): TransactItem[] {
    return [
      {
        Delete: {
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':queued': 'queued' },
        },
      },
      ...(idempotencyKeyHash
        ? [
            {
              Delete: {
                TableName: this.table.name,
                Key: keys.jobIdempotency(accountId, idempotencyKeyHash),
                ConditionExpression: 'job_id = :job',
                ExpressionAttributeValues: { ':job': jobId },
              },
            },
          ]
        : []),
    ];
  }

  private restoreJobItem(snapshot: StoredJob, condition: JobCondition): TransactItem {
    const guard = jobCondition(condition);
    return {
      Put: {
        TableName: this.table.name,
        Item: { ...keys.job(snapshot.account_id, snapshot.id), type: 'job', ...activeIndex(snapshot), ...snapshot },
        ConditionExpression: guard.conditions.join(' AND '),
        ...(Object.keys(guard.names).length ? { ExpressionAttributeNames: guard.names } : {}),
        ...(Object.keys(guard.values).length ? { ExpressionAttributeValues: guard.values } : {}),
      },
    };
  }

  private jobUpdate(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, now: Date) {
    const { conditions, names, values } = jobCondition(condition);
    values[':updated_at'] = now.toISOString();
    const sets = ['updated_at = :updated_at'];
    const removes: string[] = [];
    for (const [field, value] of Object.entries({ ...changes, updated_at: undefined })) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
    if (changes.status && isFinal(changes.status)) removes.push('gsi1pk', 'gsi1sk');
    return {
      TableName: this.table.name,
      Key: keys.job(accountId, jobId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
  }
}

function jobCondition(condition: JobCondition) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions = ['attribute_exists(pk)'];
  if (condition.statusIn) {
    names['#status'] = 'status';
    const placeholders = condition.statusIn.map((status, i) => {
      values[`:if_status_${i}`] = status;
      return `:if_status_${i}`;
    });
    conditions.push(`#status IN (${placeholders.join(', ')})`);
  }
  if (condition.taskToken !== undefined) {
    names['#task_token'] = 'task_token';
    values[':if_token'] = condition.taskToken;
    conditions.push(condition.taskToken === null ? '(attribute_not_exists(#task_token) OR #task_token = :if_token)' : '#task_token = :if_token');
  }
  if (condition.regenerations !== undefined) {
    values[':if_regenerations'] = condition.regenerations;
    conditions.push('regenerations = :if_regenerations');
  }
  return { conditions, names, values };
}

function toJob(item: Record<string, unknown>): StoredJob {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _g1, gsi1sk: _g2, ...rest } = item;
  return rest as unknown as StoredJob;
}
