/**
 * The monthly allowance ledger on DynamoDB. The period's counters move in the same transaction as
 * the entry, guarded by the entry's state. DynamoDB conditions cannot add two attributes, so the
 * period keeps `committed` (= used + reserved) beside them and reservations are admitted by
 * `committed < limit`. Reserved entries sit in a sparse index until settled, so the sweeper finds
 * any whose job ended without settling them.
 *
 * Reserving and withdrawing take the writes of the record the unit pays for (the job store's
 * transactions), so a unit is never reserved for a job that does not exist, and a request that loses
 * a race holds nothing it would have to give back.
 */
import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { allowanceExhausted } from '#domain/quote';
import {
  LedgerViolation,
  type AllowanceLedger,
  type ChargeRef,
  type EntryState,
  type LedgerEntry,
  type LedgerOutcome,
  type PeriodUsage,
  type Reservation,
  type ReservedUnit,
} from '#ports/allowance-ledger';
import { GSI1, keys } from './keys';
import type { DynamoTable } from './table';
import { transact, type TransactItem, type TransactOutcome } from './transactions';

const reservedIndexKey = (ref: ChargeRef, at: string) => ({
  gsi1pk: keys.reservedUnitsIndex,
  gsi1sk: `${at}#${ref.accountId}#${ref.jobId}#${ref.chargeNumber}`,
});

export class DynamoAllowanceLedger implements AllowanceLedger {
  constructor(private readonly table: DynamoTable) {}

  /**
   * Reserves one unit together with `writes`, all or nothing. The writes' own conditions (the job
   * still at preview_ready, an Idempotency-Key not yet taken) are checked first: when one refuses,
   * nothing is written and its index in `writes` comes back. A full allowance is 402.
   */
  reserveWith(unit: Reservation, writes: TransactItem[], now = new Date()): Promise<TransactOutcome> {
    return this.reserveAllWith([unit], writes, now);
  }

  /**
   * reserveWith for several units of one account, period and limit (a batch's jobs): one entry each
   * and one move of the period's counters by their number, admitted only if all of them fit.
   */
  async reserveAllWith(units: readonly Reservation[], writes: TransactItem[], now = new Date()): Promise<TransactOutcome> {
    const { ref: first, period, limit } = units[0]!;
    if (units.some((unit) => unit.ref.accountId !== first.accountId || unit.period !== period || unit.limit !== limit)) {
      throw new Error('units reserved together share their account, period and limit');
    }
    // The condition below reads "no counter yet" as room for any number: more than the limit never fits.
    if (units.length > limit) throw allowanceExhausted(limit, period);
    const at = now.toISOString();
    const outcome = await transact(
      [
        ...writes,
        // A released entry may be reserved again (a rolled-back round), through the same limit check.
        ...units.map(({ ref }): TransactItem => ({
          Put: {
            TableName: this.table.name,
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
        })),
        this.periodItem(first.accountId, period, 'ADD committed :n, reserved :n SET #type = :type', {
          ConditionExpression: 'attribute_not_exists(committed) OR committed <= :most',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':n': units.length, ':most': limit - units.length, ':type': 'allowance_period' },
        }),
      ],
      this.table.client,
    );
    if (outcome.written) return outcome;
    const ownFailures = outcome.failed.filter((index) => index < writes.length);
    if (ownFailures.length > 0) return { written: false, failed: ownFailures };
    const held = outcome.failed.find((index) => index < writes.length + units.length);
    if (held !== undefined) {
      const { ref } = units[held - writes.length]!;
      throw new LedgerViolation(`job ${ref.jobId} already holds allowance unit ${ref.chargeNumber}`);
    }
    throw allowanceExhausted(limit, period);
  }

  /**
   * Takes back a reservation this request made, together with `writes` (undoing the record it paid
   * for), all or nothing. The entry is deleted, not released: it never existed for anyone else, and a
   * retry of the request reserves afresh through the limit check.
   */
  withdrawWith({ ref, period }: Omit<Reservation, 'limit'>, writes: TransactItem[]): Promise<TransactOutcome> {
    return transact(
      [
        ...writes,
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
            ConditionExpression: '#state = :reserved',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':reserved': 'reserved' },
          },
        },
        this.periodItem(ref.accountId, period, 'ADD reserved :minus, committed :minus', { ExpressionAttributeValues: { ':minus': -1 } }),
      ],
      this.table.client,
    );
  }

  async charge(ref: ChargeRef, now = new Date()): Promise<LedgerOutcome> {
    const outcome = await this.settle(ref, 'charged', 'ADD reserved :minus, used :one', now);
    if (outcome.state === 'released') {
      throw new LedgerViolation(`allowance unit ${ref.chargeNumber} of job ${ref.jobId} was released; it cannot be charged`);
    }
    return outcome;
  }

  release(ref: ChargeRef, now = new Date()): Promise<LedgerOutcome> {
    return this.settle(ref, 'released', 'ADD reserved :minus, committed :minus', now);
  }

  async entry(ref: ChargeRef): Promise<LedgerEntry | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber), ConsistentRead: true }),
    );
    return out.Item ? { state: out.Item.state as EntryState, period: out.Item.period as string } : undefined;
  }

  async periodUsage(accountId: number, period: string): Promise<PeriodUsage> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.allowancePeriod(accountId, period), ConsistentRead: true }),
    );
    return { used: Number(out.Item?.used ?? 0), reserved: Number(out.Item?.reserved ?? 0) };
  }

  async *reservedBefore(cutoff: Date): AsyncGenerator<ReservedUnit> {
    const pages = paginateQuery(
      { client: this.table.client },
      {
        TableName: this.table.name,
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

  private async settle(ref: ChargeRef, target: 'charged' | 'released', periodUpdate: string, now: Date): Promise<LedgerOutcome> {
    const entry = await this.entry(ref);
    if (!entry) throw new LedgerViolation(`no allowance reservation for job ${ref.jobId} charge ${ref.chargeNumber}`);
    if (entry.state !== 'reserved') return { state: entry.state, changed: false };
    const outcome = await transact(
      [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.allowanceEntry(ref.accountId, ref.jobId, ref.chargeNumber),
            UpdateExpression: 'SET #state = :target, settled_at = :now REMOVE gsi1pk, gsi1sk',
            ConditionExpression: '#state = :reserved',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':reserved': 'reserved', ':target': target, ':now': now.toISOString() },
          },
        },
        this.periodItem(ref.accountId, entry.period, periodUpdate, {
          ExpressionAttributeValues: periodUpdate.includes(':one') ? { ':one': 1, ':minus': -1 } : { ':minus': -1 },
        }),
      ],
      this.table.client,
    );
    if (outcome.written) return { state: target, changed: true };
    // A concurrent settle won the race; report what it decided.
    const settled = await this.entry(ref);
    return { state: settled?.state ?? target, changed: false };
  }

  /** The move of a period's counters that goes with every change of an entry. */
  private periodItem(
    accountId: number,
    period: string,
    expression: string,
    rest: Pick<NonNullable<TransactItem['Update']>, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
  ): TransactItem {
    return { Update: { TableName: this.table.name, Key: keys.allowancePeriod(accountId, period), UpdateExpression: expression, ...rest } };
  }
}
