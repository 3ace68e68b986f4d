/**
 * The items and conditional writes of video job records, as transaction items the job store sends
 * alone or together with the allowance ledger's and the video library's. Jobs in flight carry the
 * sparse active-jobs index attributes (gsi2, sharded), sorted by what the sweeper watches them for
 * (domain/job-watch.ts), and dropped when they end.
 */
import { JOB_STAGES } from '#domain/jobs';
import { watchAfter, watchOf, type JobWatch } from '#domain/job-watch';
import type { StoredJob } from '#domain/job-execution';
import type { Video } from '#domain/video';
import type { VideoBatch } from '#domain/batches';
import type { IdempotencyClaim, JobChanges, JobCondition } from '#ports/job-store';
import { keys, padId } from './keys';
import { shardedPk } from './shards';
import type { DynamoTable } from './table';
import type { TransactItem } from './transactions';

/** Sort-key prefixes of the active-jobs set: the sweeper reads the watched ones by range. */
export const WATCH_PREFIX = { unstarted: 'U#', handover: 'H#', quiet: 'Q#' } as const;

/** A job in flight's place in the active-jobs set: its shard (by its id, so it never moves shards) and its watch. */
export function watchKeys(accountId: number, jobId: number, watch: JobWatch): { gsi2pk: string; gsi2sk: string } {
  const self = `${padId(accountId)}#${padId(jobId)}`;
  return {
    gsi2pk: shardedPk(keys.activeJobsIndex, `${accountId}/${jobId}`),
    gsi2sk: watch.kind === 'quiet' ? `${WATCH_PREFIX.quiet}${self}` : `${WATCH_PREFIX[watch.kind]}${watch.since}#${self}`,
  };
}

const activeIndex = (job: StoredJob) => {
  const watch = watchOf(job);
  return watch ? watchKeys(job.account_id, job.id, watch) : {};
};

/** Leaving the set also leaves gsi1's single partition, where jobs written before the shards sit. */
const LEAVE_ACTIVE = 'gsi2pk, gsi2sk, gsi1pk, gsi1sk';

/** In newJobItems, the Idempotency-Key's Put follows the job's; in newBatchItems, the batch's. */
export const IDEMPOTENCY_ITEM = 1;
/** Keys are remembered for a day, as payment APIs do; the TTL sweeps them afterwards. */
const keyExpiry = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + 24 * 3600;

/** The record of an Idempotency-Key (refused when another request holds it). */
function idempotencyPut(table: DynamoTable, key: { pk: string; sk: string }, type: string, target: Record<string, number>, claim: IdempotencyClaim, createdAt: string): TransactItem {
  return {
    Put: {
      TableName: table.name,
      Item: { ...key, type, ...target, request_hash: claim.requestHash, created_at: createdAt, expires_at: keyExpiry(createdAt) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The writes that create a job (item 0), and with an Idempotency-Key its record (item 1). */
export function newJobItems(table: DynamoTable, job: StoredJob, idempotency?: IdempotencyClaim): TransactItem[] {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table.name,
        Item: { ...keys.job(job.account_id, job.id), type: 'job', ...activeIndex(job), ...job },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  if (idempotency) items.push(idempotencyPut(table, keys.jobIdempotency(job.account_id, idempotency.keyHash), 'job_idempotency', { job_id: job.id }, idempotency, job.created_at));
  return items;
}

/** The writes that create a batch (item 0), its Idempotency-Key's record (item 1) and its jobs. */
export function newBatchItems(table: DynamoTable, batch: VideoBatch, jobs: StoredJob[], idempotency?: IdempotencyClaim): TransactItem[] {
  const items: TransactItem[] = [
    { Put: { TableName: table.name, Item: { ...keys.batch(batch.account_id, batch.id), type: 'batch', ...batch }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
  if (idempotency) items.push(idempotencyPut(table, keys.batchIdempotency(batch.account_id, idempotency.keyHash), 'batch_idempotency', { batch_id: batch.id }, idempotency, batch.created_at));
  items.push(...jobs.flatMap((job) => newJobItems(table, job)));
  return items;
}

/** Undoes newJobItems while the job is still queued (and the key still names it). */
export function deleteNewJobItems(table: DynamoTable, accountId: number, jobId: number, idempotencyKeyHash?: string): TransactItem[] {
  return [
    {
      Delete: {
        TableName: table.name,
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
              TableName: table.name,
              Key: keys.jobIdempotency(accountId, idempotencyKeyHash),
              ConditionExpression: 'job_id = :job',
              ExpressionAttributeValues: { ':job': jobId },
            },
          },
        ]
      : []),
  ];
}

/** Puts a job back as it was in `snapshot`, while it still meets `condition`. */
export function restoreJobItem(table: DynamoTable, snapshot: StoredJob, condition: JobCondition): TransactItem {
  const guard = jobCondition(condition);
  return {
    Put: {
      TableName: table.name,
      Item: { ...keys.job(snapshot.account_id, snapshot.id), type: 'job', ...activeIndex(snapshot), ...snapshot },
      ConditionExpression: guard.conditions.join(' AND '),
      ...(Object.keys(guard.names).length ? { ExpressionAttributeNames: guard.names } : {}),
      ...(Object.keys(guard.values).length ? { ExpressionAttributeValues: guard.values } : {}),
    },
  };
}

/**
 * A conditional update of a job's fields; one that changes what the sweeper watches moves its key in
 * the active-jobs set, and ending the job drops it from the set. Most updates leave the key, and then
 * write nothing to the index (its projection holds only attributes a job never changes).
 */
export function jobUpdate(table: DynamoTable, accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, now: Date) {
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
  const watch = watchAfter(changes);
  if (watch === null) removes.push(LEAVE_ACTIVE);
  if (watch) {
    const index = watchKeys(accountId, jobId, watch);
    Object.assign(values, { ':watch_pk': index.gsi2pk, ':watch_sk': index.gsi2sk });
    sets.push('gsi2pk = :watch_pk', 'gsi2sk = :watch_sk');
    removes.push('gsi1pk', 'gsi1sk');
  }
  return {
    TableName: table.name,
    Key: keys.job(accountId, jobId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** A processing job becomes done with its video. */
export function finishedJobUpdate(table: DynamoTable, job: StoredJob, video: Video, chargedUnits: number, now: Date): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keys.job(job.account_id, job.id),
      UpdateExpression:
        'SET #status = :done, stage = :done, progress = :full, video_id = :video, charged_units = :charged, updated_at = :now, ' +
        `resume_at = :null, task_token = :null, #output = :null REMOVE ${LEAVE_ACTIVE}`,
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
  };
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
