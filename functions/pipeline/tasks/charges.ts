/** The job's allowance units in the ledger, numbered per round (see domain/jobs). */
import { charge, getEntry, release, type ChargeRef } from '#adapters/dynamodb/allowance-ledger';
import { currentChargeNumber } from '#domain/jobs';
import type { StoredJob } from '#adapters/dynamodb/jobs';

const refsOf = (job: StoredJob): ChargeRef[] =>
  Array.from({ length: job.regenerations + 1 }, (_, i) => ({ accountId: job.account_id, jobId: job.id, chargeNumber: i + 1 }));

/** Charges the current round's unit (a no-op when it already is) and returns how many are charged. */
export async function chargeCurrentRound(job: StoredJob): Promise<number> {
  await charge({ accountId: job.account_id, jobId: job.id, chargeNumber: currentChargeNumber(job) });
  return countCharged(job);
}

/** Gives back every unit still only reserved; charged ones stay (the preview was delivered). */
export async function releaseReserved(job: StoredJob): Promise<number> {
  // release() reads the entry and moves only a reservation: a charged or released unit is left as it
  // is. One at a time: each release moves the same period counter.
  let charged = 0;
  for (const ref of refsOf(job)) if ((await release(ref)).state === 'charged') charged++;
  return charged;
}

async function countCharged(job: StoredJob): Promise<number> {
  const entries = await Promise.all(refsOf(job).map(getEntry));
  return entries.filter((entry) => entry?.state === 'charged').length;
}
