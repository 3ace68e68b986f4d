/**
 * Video job records. Every status change is a conditional update on the status it leaves, so two
 * writers (a retried step, a duplicate approve) cannot both move a job; the loser learns it lost.
 * Jobs in flight carry the sparse active-jobs index attributes, dropped when they end.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { isFinal, JOB_STAGES, type Job, type JobStatus } from '#domain/jobs';
import type { Video } from '#domain/video';
import { GSI1, keys, padId } from './keys';
import { nextId } from './ids';
import type { TransactItem } from './transactions';
import { putNewVideoWith } from './videos';

export const newJobId = () => nextId('job');
/** Videos are numbered apart from jobs; Compose takes the id before it uploads the files. */
export const newVideoId = () => nextId('video');

/** Pipeline bookkeeping kept beside the job's public fields. */
export interface JobInternals {
  /** The pending AwaitDecision's task token, while the job waits at preview_ready. */
  task_token?: string | null;
  /** The ASL state the job is in (see STATE_OF_STEP). */
  resume_at?: string | null;
  /** The composed video, uploaded under its id, waiting for Finalize to record it. */
  output?: JobOutput | null;
}

export interface JobOutput {
  video_id: number;
  key: string;
  poster_key: string;
  duration_s: number;
  size_bytes: number;
}

export type StoredJob = Job & JobInternals;

export interface IdempotencyRecord {
  job_id: number;
  request_hash: string;
}

const activeIndex = (job: Pick<Job, 'id' | 'account_id'>) => ({ gsi1pk: keys.activeJobsIndex, gsi1sk: `${padId(job.id)}#${job.account_id}` });

export interface IdempotencyClaim {
  keyHash: string;
  requestHash: string;
}

/**
 * The writes that create a job, and with an Idempotency-Key its record: item 0 is the job, item 1
 * the key (refused when another request holds it). The caller writes them in one transaction with the
 * job's allowance reservation.
 */
export function newJobItems(job: StoredJob, idempotency?: IdempotencyClaim): TransactItem[] {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: config.tableName,
        Item: { ...keys.job(job.account_id, job.id), type: 'job', ...activeIndex(job), ...job },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  if (idempotency) {
    items.push({
      Put: {
        TableName: config.tableName,
        Item: {
          ...keys.jobIdempotency(job.account_id, idempotency.keyHash),
          type: 'job_idempotency',
          job_id: job.id,
          request_hash: idempotency.requestHash,
          created_at: job.created_at,
          // Keys are remembered for a day, as payment APIs do; the TTL sweeps them afterwards.
          expires_at: Math.floor(Date.parse(job.created_at) / 1000) + 24 * 3600,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  return items;
}

export const IDEMPOTENCY_ITEM = 1;

export async function getIdempotency(accountId: number, keyHash: string): Promise<IdempotencyRecord | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.jobIdempotency(accountId, keyHash), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  // An expired key the TTL sweep has not reached yet counts as gone.
  if (Number(out.Item.expires_at) * 1000 < Date.now()) return undefined;
  return { job_id: out.Item.job_id as number, request_hash: out.Item.request_hash as string };
}

/** The writes that undo newJobItems for a job that could not be started and has not moved yet. */
export function deleteNewJobItems(accountId: number, jobId: number, idempotencyKeyHash?: string): TransactItem[] {
  return [
    {
      Delete: {
        TableName: config.tableName,
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
              TableName: config.tableName,
              Key: keys.jobIdempotency(accountId, idempotencyKeyHash),
              ConditionExpression: 'job_id = :job',
              ExpressionAttributeValues: { ':job': jobId },
            },
          },
        ]
      : []),
  ];
}

/**
 * The write that puts a job back exactly as it was read (`snapshot`), if it is still as `condition`
 * says: the undo of a decision whose hand-over to the state machine failed.
 */
export function restoreJobItem(snapshot: StoredJob, condition: JobCondition & { regenerations?: number }): TransactItem {
  const guard = jobCondition(condition);
  if (condition.regenerations !== undefined) {
    guard.conditions.push('regenerations = :if_regenerations');
    guard.values[':if_regenerations'] = condition.regenerations;
  }
  return {
    Put: {
      TableName: config.tableName,
      Item: { ...keys.job(snapshot.account_id, snapshot.id), type: 'job', ...activeIndex(snapshot), ...snapshot },
      ConditionExpression: guard.conditions.join(' AND '),
      ...(Object.keys(guard.names).length ? { ExpressionAttributeNames: guard.names } : {}),
      ...(Object.keys(guard.values).length ? { ExpressionAttributeValues: guard.values } : {}),
    },
  };
}

export async function getJob(accountId: number, jobId: number): Promise<StoredJob | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: config.tableName, Key: keys.job(accountId, jobId), ConsistentRead: true }));
  return out.Item ? toJob(out.Item) : undefined;
}

export type JobChanges = Partial<Omit<StoredJob, 'id' | 'account_id' | 'created_at'>>;

export interface JobCondition {
  /** The update applies only while the job has one of these statuses. */
  statusIn?: readonly JobStatus[];
  /** ...and only while this task token is the pending one (null: while none is). */
  taskToken?: string | null;
}

/**
 * Applies changes if the condition holds; returns the updated job, or undefined when the job is gone
 * or the condition failed (someone else moved it first).
 */
export async function updateJob(
  accountId: number,
  jobId: number,
  changes: JobChanges,
  condition: JobCondition = {},
  now = new Date(),
): Promise<StoredJob | undefined> {
  try {
    const out = await dynamo().send(new UpdateCommand({ ...jobUpdate(accountId, jobId, changes, condition, now), ReturnValues: 'ALL_NEW' }));
    return toJob(out.Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** The same change as updateJob, as an item of a transaction (refused when the condition fails). */
export function updateJobItem(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, now = new Date()): TransactItem {
  return { Update: jobUpdate(accountId, jobId, changes, condition, now) };
}

function jobUpdate(accountId: number, jobId: number, changes: JobChanges, condition: JobCondition, now: Date) {
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
    TableName: config.tableName,
    Key: keys.job(accountId, jobId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
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
  return { conditions, names, values };
}

/** Every job not yet done or failed, across accounts, oldest first. */
export async function listActiveJobs(): Promise<{ accountId: number; jobId: number }[]> {
  const found: { accountId: number; jobId: number }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :active',
        ExpressionAttributeValues: { ':active': keys.activeJobsIndex },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) found.push({ accountId: item.account_id as number, jobId: item.id as number });
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return found;
}

function toJob(item: Record<string, unknown>): StoredJob {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _g1, gsi1sk: _g2, ...rest } = item;
  return rest as unknown as StoredJob;
}

/**
 * Finalize: the video record and the job's move to done in one transaction, so a video never exists
 * for a job that is not done, nor a done job without its video. False when the job is no longer
 * processing (it already finished, or was failed meanwhile).
 */
export async function finishJobWithVideo(job: StoredJob, video: Video, chargedUnits: number, now = new Date()): Promise<boolean> {
  // The video's counter (meta.total of GET /videos) moves in the same transaction (collection-counter.ts).
  return putNewVideoWith(video, {
    Update: {
      TableName: config.tableName,
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
  });
}
