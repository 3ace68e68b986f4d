/**
 * The allowance ledger in memory, with the DynamoDB ledger's rules: an entry moves reserved → charged
 * or reserved → released once; charging a released or missing entry is a LedgerViolation; reserving
 * past the period's limit is allowance_exhausted, reserving a unit held already a LedgerViolation.
 */
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

interface Entry {
  ref: ChargeRef;
  state: EntryState;
  period: string;
  reservedAt: string;
}

const entryKey = (ref: ChargeRef) => `${ref.accountId}/${ref.jobId}/${ref.chargeNumber}`;
const periodKey = (accountId: number, period: string) => `${accountId}/${period}`;

export class MemoryAllowanceLedger implements AllowanceLedger {
  private readonly entries = new Map<string, Entry>();
  /** `committed` counts what the limit is checked against: used + reserved. */
  private readonly periods = new Map<string, PeriodUsage & { committed: number }>();

  /** Throws as the DynamoDB ledger's reservation does; the job store double calls it inside its writes. */
  reserve({ ref, period, limit }: Reservation, now: Date): void {
    const existing = this.entries.get(entryKey(ref));
    if (existing && existing.state !== 'released') throw new LedgerViolation(`job ${ref.jobId} already holds allowance unit ${ref.chargeNumber}`);
    const counters = this.counters(ref.accountId, period);
    if (counters.committed >= limit) throw allowanceExhausted(limit, period);
    counters.committed++;
    counters.reserved++;
    this.entries.set(entryKey(ref), { ref: { ...ref }, state: 'reserved', period, reservedAt: now.toISOString() });
  }

  /** Several units of one account, period and limit, all or none (the job store double's batch write). */
  reserveAll(units: readonly Reservation[], now: Date): void {
    const { ref: first, period, limit } = units[0]!;
    for (const { ref } of units) {
      const existing = this.entries.get(entryKey(ref));
      if (existing && existing.state !== 'released') throw new LedgerViolation(`job ${ref.jobId} already holds allowance unit ${ref.chargeNumber}`);
    }
    if (this.counters(first.accountId, period).committed + units.length > limit) throw allowanceExhausted(limit, period);
    for (const unit of units) this.reserve(unit, now);
  }

  /** Takes a reservation back as if it never was; false when the entry is not reserved. */
  withdraw({ ref, period }: Omit<Reservation, 'limit'>): boolean {
    if (this.entries.get(entryKey(ref))?.state !== 'reserved') return false;
    this.entries.delete(entryKey(ref));
    const counters = this.counters(ref.accountId, period);
    counters.reserved--;
    counters.committed--;
    return true;
  }

  async charge(ref: ChargeRef): Promise<LedgerOutcome> {
    const outcome = this.settle(ref, 'charged');
    if (outcome.state === 'released') throw new LedgerViolation(`allowance unit ${ref.chargeNumber} of job ${ref.jobId} was released; it cannot be charged`);
    return outcome;
  }

  async release(ref: ChargeRef): Promise<LedgerOutcome> {
    return this.settle(ref, 'released');
  }

  async entry(ref: ChargeRef): Promise<LedgerEntry | undefined> {
    const entry = this.entries.get(entryKey(ref));
    return entry && { state: entry.state, period: entry.period };
  }

  async periodUsage(accountId: number, period: string): Promise<PeriodUsage> {
    const counters = this.periods.get(periodKey(accountId, period));
    return { used: counters?.used ?? 0, reserved: counters?.reserved ?? 0 };
  }

  async *reservedBefore(cutoff: Date): AsyncGenerator<ReservedUnit> {
    const due = [...this.entries.values()]
      .filter((entry) => entry.state === 'reserved' && entry.reservedAt < cutoff.toISOString())
      .sort((a, b) => a.reservedAt.localeCompare(b.reservedAt));
    for (const entry of due) yield { ...entry.ref, reservedAt: entry.reservedAt };
  }

  private settle(ref: ChargeRef, target: 'charged' | 'released'): LedgerOutcome {
    const entry = this.entries.get(entryKey(ref));
    if (!entry) throw new LedgerViolation(`no allowance reservation for job ${ref.jobId} charge ${ref.chargeNumber}`);
    if (entry.state !== 'reserved') return { state: entry.state, changed: false };
    entry.state = target;
    const counters = this.counters(ref.accountId, entry.period);
    counters.reserved--;
    if (target === 'charged') counters.used++;
    else counters.committed--;
    return { state: target, changed: true };
  }

  private counters(accountId: number, period: string) {
    const key = periodKey(accountId, period);
    let counters = this.periods.get(key);
    if (!counters) this.periods.set(key, (counters = { used: 0, reserved: 0, committed: 0 }));
    return counters;
  }
}
