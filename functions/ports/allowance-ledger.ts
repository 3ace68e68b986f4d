/**
 * The monthly allowance ledger. Each (job, charge number) has one entry that moves
 * reserved → charged or reserved → released exactly once, so retries and duplicate callbacks change
 * nothing. A unit is reserved only in the same write as the record it pays for (the new job, or the
 * job's move to its next round): those writes are JobStore methods, and the store guarantees their
 * atomicity. What is left here is settling and reading.
 */

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

export interface ReservedUnit extends ChargeRef {
  reservedAt: string;
}

export interface AllowanceLedger {
  /**
   * Turns a reservation into a charge; charging a charged entry is a no-op. Charging a released or
   * missing entry throws LedgerViolation: the unit was given back, so the work must not be delivered as paid.
   */
  charge(ref: ChargeRef, now?: Date): Promise<LedgerOutcome>;
  /** Gives a reservation back; releasing twice, or releasing a charge, changes nothing. */
  release(ref: ChargeRef, now?: Date): Promise<LedgerOutcome>;
  entry(ref: ChargeRef): Promise<LedgerEntry | undefined>;
  periodUsage(accountId: number, period: string): Promise<PeriodUsage>;
  /** Units still reserved since before `cutoff`, oldest first, across accounts. */
  reservedBefore(cutoff: Date): AsyncIterable<ReservedUnit>;
}

/** The ledger was asked to do something its entries forbid: a bug upstream, never a user error. */
export class LedgerViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerViolation';
  }
}
