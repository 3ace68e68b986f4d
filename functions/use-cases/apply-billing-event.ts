/**
 * POST /billing/stripe/webhook, after the adapter verified the delivery: the provider's report
 * applied to the account's plan by the same rules as a change the owner asks for (an upgrade now, a
 * downgrade at the next period), exactly once per event id: the event is recorded in the same
 * conditional write as the change, so a redelivery (providers retry until answered 2xx) changes
 * nothing and is still answered 2xx.
 */
import { isAppError } from '#domain/errors';
import { changedPlan, type PlanChangeOutcome } from '#domain/plan-change';
import type { PlanRecord, SubscriptionLink } from '#ports/account-store';
import type { BillingEvent } from '#ports/billing';
import type { Ports } from '#ports/ports';
import { billingFailure, writePlanChange, type PlanDecision } from './plan-writes';

export type ApplyBillingEventDeps = Pick<Ports, 'accounts' | 'now'>;

/** `ignored`: nothing of this deployment's (a type it does not act on, an unknown account); `duplicate`: applied before. */
export type BillingEventResult = { status: 'applied'; outcome: PlanChangeOutcome } | { status: 'duplicate' } | { status: 'ignored'; reason: string };

export async function applyBillingEvent(deps: ApplyBillingEventDeps, event: BillingEvent): Promise<BillingEventResult> {
  if (event.kind === 'ignored') return { status: 'ignored', reason: `${event.type} events change no plan` };
  const now = deps.now();
  const decide = (record: PlanRecord): PlanDecision => {
    if (event.kind === 'subscribed') return { ...changedPlan(record.state, event.plan, now), subscription: event.subscription };
    // A report about a subscription the account has since replaced is history.
    if (!isCurrent(record.subscription, event.subscription)) return { state: record.state, outcome: 'unchanged' };
    if (event.kind === 'subscription_changed') return { ...changedPlan(record.state, event.plan, now), subscription: event.subscription };
    // Ended: down to free by the downgrade rule; the customer stays linked for a later checkout.
    return { ...changedPlan(record.state, 'free', now), subscription: { ...event.subscription, subscription_id: null } };
  };
  try {
    const written = await writePlanChange(deps, event.accountId, decide, event.id);
    return written.duplicate ? { status: 'duplicate' } : { status: 'applied', outcome: written.outcome };
  } catch (error) {
    // An account this deployment does not have (deleted, or another deployment's): acknowledged, or the provider retries for days.
    if (isAppError(error) && error.code === 'not_found') return { status: 'ignored', reason: `account ${event.accountId} does not exist here` };
    throw error;
  }
}

function isCurrent(linked: SubscriptionLink | null, reported: SubscriptionLink): boolean {
  return linked === null || linked.subscription_id === null || linked.subscription_id === reported.subscription_id;
}

/** A webhook delivery: verified and read by the billing adapter, then applied. */
export async function receiveBillingEvent(deps: ApplyBillingEventDeps & Pick<Ports, 'billing'>, body: Buffer, signature: string | undefined): Promise<BillingEventResult> {
  let event: BillingEvent;
  try {
    event = await deps.billing.readEvent(body, signature);
  } catch (error) {
    throw billingFailure(error);
  }
  return applyBillingEvent(deps, event);
}
