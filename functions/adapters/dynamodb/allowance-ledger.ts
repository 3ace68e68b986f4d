/**
 * The monthly allowance ledger. Each (job, charge number) has one entry that moves
 * reserved → charged or reserved → released exactly once; the period's counters move in the same
 * transaction as the entry, guarded by the entry's state, so retries and duplicate callbacks change
 * nothing. DynamoDB conditions cannot add two attributes, so the period keeps `committed`
 * (= used + reserved) beside them and reservations are admitted by `committed < limit`.
 *
 * A reservation is only ever written in the same transaction as the record it pays for (the new job,
 * or the job's move to its next round): a unit is never reserved for a job that does not exist, and
 * a request that loses a race holds nothing it would have to give back. Reserved entries sit in a
 * sparse index until settled, so the sweeper finds any whose job ended without settling them.
 */
import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { AppError } from '#domain/errors';
import { GSI1, keys } from './keys';
import { transact, type TransactItem, type TransactOutcome } from './transactions';

export type EntryState = 'reserved' | 'charged' | 'released';

export interface ChargeRef {
  accountId: number;
  jobId: number;
  /** 1 for the job's first unit, 2.. for each regeneration. */
  chargeNumber: number;
}

export interface PeriodUsage {
  used: number;
  reserved: number;
}

export interface LedgerEntry {
  state: EntryState;
  period: string;
}

export type LedgerOutcome = { state: EntryState; changed: boolean };

/** A unit to reserve: which entry, in which monthly period, under which plan limit. */
export interface Reservation {
  ref: ChargeRef;
  period: string;
  limit: number;
}

/** The ledger was asked to do something its entries forbid: a bug upstream, never a user error. */
export class LedgerViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerViolation';
  }
}

const reservedIndexKey = (ref: ChargeRef, at: string) => ({
  gsi1pk: keys.reservedUnitsIndex,
  gsi1sk: `${at}#${ref.accountId}#${ref.jobId}#${ref.chargeNumber}`,
});

/**
 * Reserves one unit together with `writes`, all or nothing. The writes' own conditions (the job
 * still at preview_ready, an Idempotency-Key not yet taken) are checked first: when one refuses,
 * nothing is written and its index in `writes` comes back. A full allowance is 402.
 */
export async function reserveWith(
  { ref, period, limit }: Reservation,
  writes: TransactItem[],
  now = new Date(),
): Promise<TransactOutcome> {
  const at = now.toISOString();
  const outcome = await transact([
    ...writes,
    {
      // A released entry may be reserved again (a rolled-back round), through the same limit check.
      Put: {
        TableName: config.tableName,
        Item: {
          ...keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
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
    },
    periodItem(ref.accountId, period, 'ADD committed :one, reserved :one SET #type = :type', {
      ConditionExpression: 'attribute_not_exists(committed) OR committed < :limit',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':type': 'allowance_period' },
    }),
  ]);
  if (outcome.written) return outcome;
  const ownFailures = outcome.failed.filter((index) => index < writes.length);
  if (ownFailures.length > 0) return { written: false, failed: ownFailures };
  if (outcome.failed.includes(writes.length)) {
    throw new LedgerViolation(`job ${ref.jobId} already holds allowance unit ${ref.chargeNumber}`);
  }
  throw new AppError('allowance_exhausted', `The monthly allowance of ${limit} videos is used up for ${period}`);
}

/**
 * Takes back a reservation this request made, together with `writes` (undoing the record it paid
 * for), all or nothing. The entry is deleted, not released: it never existed for anyone else, and a
 * retry of the request reserves afresh through the limit check.
 */
export async function withdrawWith({ ref, period }: Omit<Reservation, 'limit'>, writes: TransactItem[]): Promise<TransactOutcome> {
  return transact([
    ...writes,
    {
      Delete: {
        TableName: config.tableName,
        Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
        ConditionExpression: '#state = :reserved',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':reserved': 'reserved' },
      },
    },
    periodItem(ref.accountId, period, 'ADD reserved :minus, committed :minus', { ExpressionAttributeValues: { ':minus': -1 } }),
  ]);
}

/**
 * Turns a reservation into a charge; charging an already charged entry is a no-op. Charging a
 * released or missing entry throws: the unit was given back, so the work must not be delivered as paid.
 */
export async function charge(ref: ChargeRef, now = new Date()): Promise<LedgerOutcome> {
  const outcome = await settle(ref, 'charged', 'ADD reserved :minus, used :one', now);
  if (outcome.state === 'released') {
    throw new LedgerViolation(`allowance unit ${ref.chargeNumber} of job ${ref.jobId} was released; it cannot be charged`);
  }
  return outcome;
}

/** Gives a reservation back; releasing twice, or releasing a charge, changes nothing. */
export function release(ref: ChargeRef, now = new Date()): Promise<LedgerOutcome> {
  return settle(ref, 'released', 'ADD reserved :minus, committed :minus', now);
}

async function settle(ref: ChargeRef, target: 'charged' | 'released', periodUpdate: string, now: Date): Promise<LedgerOutcome> {
  const entry = await getEntry(ref);
  if (!entry) throw new LedgerViolation(`no allowance reservation for job ${ref.jobId} charge ${ref.chargeNumber}`);
  if (entry.state !== 'reserved') return { state: entry.state, changed: false };
  const outcome = await transact([
    {
      Update: {
        TableName: config.tableName,
        Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
        UpdateExpression: 'SET #state = :target, settled_at = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#state = :reserved',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':reserved': 'reserved', ':target': target, ':now': now.toISOString() },
      },
    },
    periodItem(ref.accountId, entry.period, periodUpdate, {
      ExpressionAttributeValues: periodUpdate.includes(':one') ? { ':one': 1, ':minus': -1 } : { ':minus': -1 },
    }),
  ]);
  if (outcome.written) return { state: target, changed: true };
  // A concurrent settle won the race; report what it decided.
  const settled = await getEntry(ref);
  return { state: settled?.state ?? target, changed: false };
}

/** The move of a period's counters that goes with every change of an entry. */
function periodItem(
  accountId: number,
  period: string,
  expression: string,
  rest: Pick<NonNullable<TransactItem['Update']>, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
): TransactItem {
  return { Update: { TableName: config.tableName, Key: keys.allowancePeriod(accountId, period), UpdateExpression: expression, ...rest } };
}

export async function getEntry(ref: ChargeRef): Promise<LedgerEntry | undefined> {
  const out = await dynamo().send(
    new GetCommand({
      TableName: config.tableName,
      Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
      ConsistentRead: true,
    }),
  );
  return out.Item ? { state: out.Item.state as EntryState, period: out.Item.period as string } : undefined;
}

export async function periodUsage(accountId: number, period: string): Promise<PeriodUsage> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.allowancePeriod(accountId, period), ConsistentRead: true }),
  );
  return { used: Number(out.Item?.used ?? 0), reserved: Number(out.Item?.reserved ?? 0) };
}

/** Units still reserved since before `cutoff`, oldest first, across accounts (from the sparse index). */
export async function* reservedBefore(cutoff: Date): AsyncGenerator<ChargeRef & { reservedAt: string }> {
  const pages = paginateQuery(
    { client: dynamo() },
    {
      TableName: config.tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :reserved AND gsi1sk < :cutoff',
      ExpressionAttributeValues: { ':reserved': keys.reservedUnitsIndex, ':cutoff': cutoff.toISOString() },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      yield {
        accountId: item.account_id as number,
        jobId: item.job_id as number,
        chargeNumber: item.charge_number as number,
        reservedAt: item.reserved_at as string,
      };
    }
  }
}
