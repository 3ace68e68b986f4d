/**
 * The one way an account's plan is written: read, decide, write conditioned on what was read. A
 * write that lost a race (another change in between) is decided again on what the other left, so
 * concurrent changes apply one after the other and the account is never half of each.
 */
import { AppError, notFound } from '#domain/errors';
import { samePlanState, type PlanChangeOutcome, type PlanState } from '#domain/plan-change';
import type { PlanRecord, SubscriptionLink } from '#ports/account-store';
import { BillingError } from '#ports/billing';
import type { Ports } from '#ports/ports';

/** What a change makes of the record as it stands; `subscription` left out keeps the stored link. */
export interface PlanDecision {
  state: PlanState;
  outcome: PlanChangeOutcome;
  subscription?: SubscriptionLink | null;
}

export interface PlanWritten {
  record: PlanRecord;
  outcome: PlanChangeOutcome;
  /** True when the event had been applied before: nothing was written this time. */
  duplicate: boolean;
}

/** Rounds before giving up under a storm of concurrent changes (each round lost to a write that succeeded). */
const MAX_ROUNDS = 8;

export async function planRecordOf(deps: Pick<Ports, 'accounts'>, accountId: number): Promise<PlanRecord> {
  const record = await deps.accounts.planRecord(accountId);
  if (!record) throw notFound('Account');
  return record;
}

/**
 * Applies `decide` to the account's plan. With `eventId` the write records that provider event with
 * it (even when the plan stays as it was), and an event recorded before changes nothing.
 */
export async function writePlanChange(
  deps: Pick<Ports, 'accounts'>,
  accountId: number,
  decide: (record: PlanRecord) => PlanDecision,
  eventId?: string,
): Promise<PlanWritten> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const record = await planRecordOf(deps, accountId);
    const decision = decide(record);
    const linkUnchanged = decision.subscription === undefined || JSON.stringify(decision.subscription) === JSON.stringify(record.subscription);
    if (eventId === undefined && linkUnchanged && samePlanState(decision.state, record.state)) return { record, outcome: decision.outcome, duplicate: false };
    const result = await deps.accounts.writePlan(accountId, { version: record.version, state: decision.state, subscription: decision.subscription, eventId });
    if (result === 'duplicate') return { record, outcome: 'unchanged', duplicate: true };
    if (result === 'written') {
      const subscription = decision.subscription === undefined ? record.subscription : decision.subscription;
      return { record: { state: decision.state, version: record.version + 1, subscription }, outcome: decision.outcome, duplicate: false };
    }
  }
  throw new AppError('conflict', 'The plan is being changed by other requests at this moment; retry in a few seconds', { headers: { 'retry-after': '2' } });
}

/** How the payment provider's trouble reaches the client: never a 500. */
export function billingFailure(error: unknown): unknown {
  if (!(error instanceof BillingError)) return error;
  switch (error.kind) {
    case 'signature':
      return new AppError('bad_request', error.message, { cause: error });
    case 'payment_failed':
      return new AppError('payment_failed', error.message, { cause: error });
    case 'not_configured':
      return new AppError('billing_not_configured', error.message, { cause: error });
    case 'not_served':
      return new AppError('not_found', error.message, { cause: error });
    case 'unavailable':
      return new AppError('upstream_unavailable', error.message, { cause: error, headers: { 'retry-after': '30' } });
  }
}
