/**
 * The monthly allowance ledger. Each (job, charge number) has one entry that moves
 * reserved → charged or reserved → released exactly once; the period's counters move in the same
 * transaction as the entry, guarded by the entry's state, so retries and duplicate callbacks change
 * nothing. DynamoDB conditions cannot add two attributes, so the period keeps `committed`
 * (= used + reserved) beside them and reservations are admitted by `committed < limit`.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws-clients';
import { config } from '../../config';
import { AppError } from '../../domain/errors';
import { keys } from './keys';
import { cancellationCodes } from './transactions';

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

export async function reserve(ref: ChargeRef, period: string, limit: number, now = new Date()): Promise<LedgerOutcome> {
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: config.tableName,
              Item: {
                ...keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
                type: 'allowance_entry',
                job_id: ref.jobId,
                charge_number: ref.chargeNumber,
                period,
                state: 'reserved',
                reserved_at: now.toISOString(),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: config.tableName,
              Key: keys.allowancePeriod(ref.accountId, period),
              UpdateExpression: 'ADD committed :one, reserved :one SET #type = :type',
              ConditionExpression: 'attribute_not_exists(committed) OR committed < :limit',
              ExpressionAttributeNames: { '#type': 'type' },
              ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':type': 'allowance_period' },
            },
          },
        ],
      }),
    );
    return { state: 'reserved', changed: true };
  } catch (error) {
    const reasons = cancellationCodes(error);
    if (reasons?.[0] === 'ConditionalCheckFailed') {
      const existing = await getEntry(ref);
      if (existing) return { state: existing.state, changed: false };
    }
    if (reasons?.[1] === 'ConditionalCheckFailed') {
      throw new AppError('allowance_exhausted', `The monthly allowance of ${limit} videos is used up for ${period}`);
    }
    throw error;
  }
}

/** Turns a reservation into a charge; charging an already charged entry is a no-op. */
export function charge(ref: ChargeRef, now = new Date()): Promise<LedgerOutcome> {
  return settle(ref, 'charged', 'ADD reserved :minus, used :one', now);
}

/** Gives a reservation back; releasing twice, or releasing a charge, changes nothing. */
export function release(ref: ChargeRef, now = new Date()): Promise<LedgerOutcome> {
  return settle(ref, 'released', 'ADD reserved :minus, committed :minus', now);
}

async function settle(ref: ChargeRef, target: 'charged' | 'released', periodUpdate: string, now: Date): Promise<LedgerOutcome> {
  const entry = await getEntry(ref);
  if (!entry) throw new Error(`no allowance reservation for job ${ref.jobId} charge ${ref.chargeNumber}`);
  if (entry.state !== 'reserved') return { state: entry.state, changed: false };
  const values: Record<string, unknown> = { ':reserved': 'reserved', ':target': target, ':now': now.toISOString() };
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: config.tableName,
              Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
              UpdateExpression: 'SET #state = :target, settled_at = :now',
              ConditionExpression: '#state = :reserved',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: values,
            },
          },
          {
            Update: {
              TableName: config.tableName,
              Key: keys.allowancePeriod(ref.accountId, entry.period),
              UpdateExpression: periodUpdate,
              ExpressionAttributeValues: periodUpdate.includes(':one') ? { ':one': 1, ':minus': -1 } : { ':minus': -1 },
            },
          },
        ],
      }),
    );
    return { state: target, changed: true };
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') {
      // A concurrent settle won the race; report what it decided.
      const now = await getEntry(ref);
      return { state: now?.state ?? target, changed: false };
    }
    throw error;
  }
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
