/**
 * The active-jobs set (gsi2, sharded; job-items.ts writes it): every job in flight, for a restarted
 * local runner, and the few the sweeper must look at, read by their watch's sort-key range. Jobs
 * written before the set was sharded sit in gsi1's ACTIVE_JOBS partition with no watch: both reads
 * take them, and the sweeper gives each the watch its record calls for when it has looked at it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { watchOf } from '#domain/job-watch';
import type { StoredJob } from '#domain/job-execution';
import type { ActiveJobRef, SweepCandidate, SweepCutoffs } from '#ports/job-store';
import { keys } from './keys';
import type { DynamoTable } from './table';
import { readSet, streamSet, type ShardItem } from './shards';
import { WATCH_PREFIX, watchKeys } from './job-items';

/** The mark of a job found in the legacy partition. */
const LEGACY_MARK = 'legacy';

const refOf = ({ item }: ShardItem): ActiveJobRef => ({ accountId: item.account_id as number, jobId: item.id as number });

/** Every job in flight, by id. */
export async function listActiveJobs(table: DynamoTable): Promise<ActiveJobRef[]> {
  const { items } = await readSet(table, keys.activeJobsIndex, {});
  // A job moved out of the legacy partition between two partitions' reads is found in both.
  const byKey = new Map(items.map(refOf).map((ref) => [`${ref.accountId}/${ref.jobId}`, ref]));
  return [...byKey.values()].sort((a, b) => a.jobId - b.jobId || a.accountId - b.accountId);
}

/** Decisions handed over before `handedBefore` first (their give-up clock runs), then jobs unstarted since before `unstartedBefore` and legacy ones. */
export async function* sweepCandidates(table: DynamoTable, { unstartedBefore, handedBefore }: SweepCutoffs): AsyncGenerator<SweepCandidate> {
  const range = (prefix: string, before: Date) => ({ from: prefix, to: `${prefix}${before.toISOString()}` });
  for await (const found of streamSet(table, keys.activeJobsIndex, range(WATCH_PREFIX.handover, handedBefore), 'skip')) {
    yield { ...refOf(found), mark: found.sk };
  }
  for await (const found of streamSet(table, keys.activeJobsIndex, range(WATCH_PREFIX.unstarted, unstartedBefore), {})) {
    yield { ...refOf(found), mark: found.legacy ? LEGACY_MARK : found.sk };
  }
}

/**
 * The sweeper found nothing to do for `candidate`: quiet while its watch is still the one read. A
 * legacy job moves to its shard with the watch its record (`job`, as the sweeper read it) calls for.
 */
export async function quietJob(table: DynamoTable, candidate: SweepCandidate, job: StoredJob): Promise<boolean> {
  const { accountId, jobId } = candidate;
  const legacy = candidate.mark === LEGACY_MARK;
  const watch = legacy ? watchOf(job) : { kind: 'quiet' as const };
  if (!watch) return false;
  const index = watchKeys(accountId, jobId, watch);
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.job(accountId, jobId),
        UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk REMOVE gsi1pk, gsi1sk',
        ConditionExpression: legacy ? 'gsi1pk = :legacy AND attribute_not_exists(gsi2pk)' : 'gsi2sk = :seen',
        ExpressionAttributeValues: { ':pk': index.gsi2pk, ':sk': index.gsi2sk, ...(legacy ? { ':legacy': keys.activeJobsIndex } : { ':seen': candidate.mark }) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
