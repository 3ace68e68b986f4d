/**
 * The monthly allowance ledger on DynamoDB. The period's counters move in the same transaction as
 * the entry, guarded by the entry's state. DynamoDB conditions cannot add two attributes, so the
 * period keeps `committed` (= used + reserved) beside them and reservations are admitted by
 * `committed < limit`. Reserved entries sit in a sparse index until settled, so the sweeper finds
 * any whose job ended without settling them. The entries' items are allowance-entries.ts', the
 * counters' allowance-periods.ts'.
 *
 * Reserving and withdrawing take the writes of the record the unit pays for (the job store's
 * transactions), so a unit is never reserved for a job that does not exist, and a request that loses
 * a race holds nothing it would have to give back.
 */
import { allowanceExhausted } from '#domain/quote';
import {
  LedgerViolation,
  type AllowanceLedger,
  type ChargeRef,
  type LedgerEntry,
  type LedgerOutcome,
  type PeriodUsage,
  type Reservation,
  type ReservedUnit,
} from '#ports/allowance-ledger';
import type { DynamoTable } from './table';
import { transact, type TransactItem, type TransactOutcome } from './transactions';
import { readEntry, reservedEntriesBefore, reserveEntryItem, settleEntryItem, withdrawEntryItem } from './allowance-entries';
import { periodItem, readPeriodUsage, reservePeriodItem } from './allowance-periods';

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
        ...units.map(({ ref }) => reserveEntryItem(this.table, ref, period, at)),
        reservePeriodItem(this.table, first.accountId, period, units.length, limit),
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
        withdrawEntryItem(this.table, ref),
        periodItem(this.table, ref.accountId, period, 'ADD reserved :minus, committed :minus', { ExpressionAttributeValues: { ':minus': -1 } }),
      ],
      this.table.client,
    );
  }

  /**
   * The writes that settle `ref` as charged, for a caller's transaction (Finalize's move to done): none
   * when it already is, the entry's move and the period's counters when it is reserved (conditioned on
   * it still being so). A released or missing entry is a LedgerViolation, as for `charge`.
   */
  async chargeItems(ref: ChargeRef, now = new Date()): Promise<TransactItem[]> {
    const entry = await this.entry(ref);
    if (!entry) throw new LedgerViolation(`no allowance reservation for job ${ref.jobId} charge ${ref.chargeNumber}`);
    if (entry.state === 'released') throw new LedgerViolation(`allowance unit ${ref.chargeNumber} of job ${ref.jobId} was released; it cannot be charged`);
    if (entry.state === 'charged') return [];
    return [
      settleEntryItem(this.table, ref, 'charged', now),
      periodItem(this.table, ref.accountId, entry.period, 'ADD reserved :minus, used :one', { ExpressionAttributeValues: { ':one': 1, ':minus': -1 } }),
    ];
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

  entry(ref: ChargeRef): Promise<LedgerEntry | undefined> {
    return readEntry(this.table, ref);
  }

  periodUsage(accountId: number, period: string): Promise<PeriodUsage> {
    return readPeriodUsage(this.table, accountId, period);
  }

  reservedBefore(cutoff: Date): AsyncGenerator<ReservedUnit> {
    return reservedEntriesBefore(this.table, cutoff);
  }

  private async settle(ref: ChargeRef, target: 'charged' | 'released', periodUpdate: string, now: Date): Promise<LedgerOutcome> {
    const entry = await this.entry(ref);
    if (!entry) throw new LedgerViolation(`no allowance reservation for job ${ref.jobId} charge ${ref.chargeNumber}`);
    if (entry.state !== 'reserved') return { state: entry.state, changed: false };
    const outcome = await transact(
      [
        settleEntryItem(this.table, ref, target, now),
        periodItem(this.table, ref.accountId, entry.period, periodUpdate, {
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
}
