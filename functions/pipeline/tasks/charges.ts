/** The job's allowance units in the ledger, numbered per round (see domain/jobs). */
import { currentChargeNumber } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { ChargeRef } from '#ports/allowance-ledger';
import type { Ports } from '#ports/ports';
import type { FinishSettlement } from '#ports/job-store';

export type LedgerDeps = Pick<Ports, 'ledger' | 'now'>;

const refsOf = (job: StoredJob): ChargeRef[] =>
  Array.from({ length: job.regenerations + 1 }, (_, i) => ({ accountId: job.account_id, jobId: job.id, chargeNumber: i + 1 }));

/** Charges the current round's unit (a no-op when it already is) and returns how many are charged. */
export async function chargeCurrentRound({ ledger, now }: LedgerDeps, job: StoredJob): Promise<number> {
  await ledger.charge({ accountId: job.account_id, jobId: job.id, chargeNumber: currentChargeNumber(job) }, now());
  return countCharged({ ledger }, job);
}

/** Gives back every unit still only reserved; charged ones stay (the preview was delivered). */
export async function releaseReserved({ ledger, now }: LedgerDeps, job: StoredJob): Promise<number> {
  // release() reads the entry and moves only a reservation: a charged or released unit is left as it
  // is. One at a time: each release moves the same period counter.
  let charged = 0;
  for (const ref of refsOf(job)) if ((await ledger.release(ref, now())).state === 'charged') charged++;
  return charged;
}

/**
 * What Finalize settles for the job: an auto job's current unit is charged in the same write that
 * marks it done (JobStore.finishWithVideo), so the job records that unit as charged along with any
 * charged before; a preview job's units were charged by ChargePreview.
 */
export async function settlementOnFinish({ ledger }: Pick<LedgerDeps, 'ledger'>, job: StoredJob): Promise<FinishSettlement> {
  if (job.mode !== 'auto') return { chargedUnits: job.charged_units };
  // One read per round: the current unit counts as charged whether this write or an earlier run charges it.
  const refs = refsOf(job);
  const current = currentChargeNumber(job);
  const entries = await Promise.all(refs.map((ref) => ledger.entry(ref)));
  const chargedUnits = refs.filter((ref, i) => ref.chargeNumber === current || entries[i]?.state === 'charged').length;
  return { chargedUnits, charge: { accountId: job.account_id, jobId: job.id, chargeNumber: current } };
}

async function countCharged({ ledger }: Pick<LedgerDeps, 'ledger'>, job: StoredJob): Promise<number> {
  const entries = await Promise.all(refsOf(job).map((ref) => ledger.entry(ref)));
  return entries.filter((entry) => entry?.state === 'charged').length;
}
