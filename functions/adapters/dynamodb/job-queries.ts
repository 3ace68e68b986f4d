/**
 * Reading video job records on DynamoDB: one job, an account's jobs newest first, the jobs in flight
 * (the sparse active-jobs set, active-jobs.ts), batches and the Idempotency-Key records of both.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredJob } from '#domain/job-execution';
import type { VideoBatch } from '#domain/batches';
import type { ActiveJobRef, BatchIdempotencyRecord, IdempotencyRecord, JobSlice, JobStore } from '#ports/job-store';
import { keys, padId } from './keys';
import type { DynamoTable } from './table';
import { takeItems } from './pagination';
import { listActiveJobs } from './active-jobs';

type JobQueries = Pick<JobStore, 'get' | 'listRecent' | 'getIdempotency' | 'getBatch' | 'getBatchIdempotency' | 'listActive'>;

export class DynamoJobQueries implements JobQueries {
  constructor(private readonly table: DynamoTable) {}

  async get(accountId: number, jobId: number): Promise<StoredJob | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.job(accountId, jobId), ConsistentRead: true }));
    return out.Item ? toJob(out.Item) : undefined;
  }

  async listRecent(accountId: number, limit: number, beforeId?: number): Promise<JobSlice> {
    if (beforeId !== undefined && beforeId <= 1) return { items: [], nextBefore: null };
    const upper = beforeId === undefined ? `${keys.jobPrefix}${'9'.repeat(padId(0).length)}` : keys.job(accountId, beforeId - 1).sk;
    // One item past the limit tells whether an older slice exists without another round trip.
    const { items } = await takeItems(
      this.table,
      {
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':low': keys.job(accountId, 1).sk, ':high': upper },
        ScanIndexForward: false,
      },
      limit + 1,
    );
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

  listActive(): Promise<ActiveJobRef[]> {
    return listActiveJobs(this.table);
  }
}

export function toJob(item: Record<string, unknown>): StoredJob {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _g1, gsi1sk: _g2, gsi2pk: _g3, gsi2sk: _g4, ...rest } = item;
  return rest as unknown as StoredJob;
}
