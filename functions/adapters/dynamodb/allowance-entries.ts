/**
 * The allowance ledger's entries: one item per unit a job reserves (its charge number), moving
 * reserved → charged | released. Reserved entries sit in a sparse sharded index (gsi2, shards.ts)
 * until settled, so the sweeper finds any whose job ended without settling them.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ChargeRef, EntryState, LedgerEntry, ReservedUnit } from '#ports/allowance-ledger';
import { keys } from './keys';
import { shardedPk, streamSet } from './shards';
import type { DynamoTable } from './table';
import type { TransactItem } from './transactions';

/** A job's units share its shard (by account and job), so one job's rounds stay in one partition. */
const reservedIndexKey = (ref: ChargeRef, at: string) => ({
  gsi2pk: shardedPk(keys.reservedUnitsIndex, `${ref.accountId}/${ref.jobId}`),
  gsi2sk: `${at}#${ref.accountId}#${ref.jobId}#${ref.chargeNumber}`,
});

const entryKey = (ref: ChargeRef) => keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber);

/** A new reserved entry; a released one may be reserved again (a rolled-back round). */
export function reserveEntryItem(table: DynamoTable, ref: ChargeRef, period: string, at: string): TransactItem {
  return {
    Put: {
      TableName: table.name,
      Item: {
        ...entryKey(ref),
        ...reservedIndexKey(ref, at),
        type: 'allowance_entry',
        account_id: ref.accountId,
        job_id: ref.jobId,
        charge_number: ref.chargeNumber,
        period,
        state: 'reserved',
        reserved_at: at,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR #state = :released',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':released': 'released' },
    },
  };
}

/** A reservation taken back: deleted while still reserved. */
export function withdrawEntryItem(table: DynamoTable, ref: ChargeRef): TransactItem {
  return {
    Delete: {
      TableName: table.name,
      Key: entryKey(ref),
      ConditionExpression: '#state = :reserved',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':reserved': 'reserved' },
    },
  };
}

/** A reserved entry settled (charged or released); it leaves the reserved index. */
export function settleEntryItem(table: DynamoTable, ref: ChargeRef, target: 'charged' | 'released', now: Date): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: entryKey(ref),
      // gsi1's too: an entry reserved before the set was sharded sits there.
      UpdateExpression: 'SET #state = :target, settled_at = :now REMOVE gsi2pk, gsi2sk, gsi1pk, gsi1sk',
      ConditionExpression: '#state = :reserved',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':reserved': 'reserved', ':target': target, ':now': now.toISOString() },
    },
  };
}

export async function readEntry(table: DynamoTable, ref: ChargeRef): Promise<LedgerEntry | undefined> {
  const out = await table.client.send(new GetCommand({ TableName: table.name, Key: entryKey(ref), ConsistentRead: true }));
  return out.Item ? { state: out.Item.state as EntryState, period: out.Item.period as string } : undefined;
}

/** The entries still reserved since before `cutoff`, oldest first in each shard, read as the caller goes. */
export async function* reservedEntriesBefore(table: DynamoTable, cutoff: Date): AsyncGenerator<ReservedUnit> {
  for await (const { item } of streamSet(table, keys.reservedUnitsIndex, { below: cutoff.toISOString() })) {
    yield {
      accountId: item.account_id as number,
      jobId: item.job_id as number,
      chargeNumber: item.charge_number as number,
      reservedAt: item.reserved_at as string,
    };
  }
}
