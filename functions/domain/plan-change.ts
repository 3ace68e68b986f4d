/**
 * Changing plans. An upgrade takes effect at once: the larger allowance and caps hold from the
 * request on, and the units already used this period still count against them. A downgrade waits for
 * the next billing period (domain/billing-period.ts): what was paid for this month is kept until it
 * ends, and the account shows the change coming (`pending_plan`, `plan_changes_at`).
 *
 * A waiting downgrade is settled when the account is next read, by the clock: no job has to run at
 * midnight for it to take effect, and every reader agrees on the plan in force at a given instant.
 */
import { billingPeriodOf } from './billing-period';
import { isUpgrade, type PlanName } from './plans';

/** The plan part of an account. */
export interface PlanState {
  plan: PlanName;
  /** A downgrade waiting for the next billing period, or null. */
  pending_plan: PlanName | null;
  /** When `pending_plan` takes over (the next period's start), or null. */
  plan_changes_at: string | null;
}

/**
 * What a change did: `upgraded` (in force now), `downgrade_scheduled` (in force at `plan_changes_at`),
 * `downgrade_cancelled` (the plan in force was asked for again, so the waiting downgrade is dropped),
 * `unchanged` (the plan, or the waiting downgrade, was already the one asked for).
 */
export type PlanChangeOutcome = 'upgraded' | 'downgrade_scheduled' | 'downgrade_cancelled' | 'unchanged';

const settledTo = (plan: PlanName): PlanState => ({ plan, pending_plan: null, plan_changes_at: null });

/** The state as it stands at `at`: a waiting downgrade whose time has come is the plan. */
export function settledPlan(state: PlanState, at: Date): PlanState {
  if (state.pending_plan !== null && state.plan_changes_at !== null && at.getTime() >= Date.parse(state.plan_changes_at)) {
    return settledTo(state.pending_plan);
  }
  return { plan: state.plan, pending_plan: state.pending_plan, plan_changes_at: state.plan_changes_at };
}

/** The plan whose allowance and caps hold at `at`. */
export const planInForce = (state: PlanState, at: Date): PlanName => settledPlan(state, at).plan;

/** The state after asking for `to` at `at`, and what that did. */
export function changedPlan(state: PlanState, to: PlanName, at: Date): { state: PlanState; outcome: PlanChangeOutcome } {
  const current = settledPlan(state, at);
  if (to === current.plan) {
    return current.pending_plan === null ? { state: current, outcome: 'unchanged' } : { state: settledTo(to), outcome: 'downgrade_cancelled' };
  }
  if (isUpgrade(current.plan, to)) return { state: settledTo(to), outcome: 'upgraded' };
  if (current.pending_plan === to) return { state: current, outcome: 'unchanged' };
  return { state: { plan: current.plan, pending_plan: to, plan_changes_at: billingPeriodOf(at).end }, outcome: 'downgrade_scheduled' };
}

/** Whether two states are the same (a change that changes nothing writes nothing). */
export const samePlanState = (a: PlanState, b: PlanState) => a.plan === b.plan && a.pending_plan === b.pending_plan && a.plan_changes_at === b.plan_changes_at;
