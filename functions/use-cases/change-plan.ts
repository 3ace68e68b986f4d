/**
 * PUT /account/plan: the owner changes the account's plan from the studio. The plan rules
 * (domain/plan-change.ts) decide what changes and when; the billing port decides whether the payment
 * provider must be paid first (a checkout: nothing changes until its webhook reports the payment) or
 * has been told and the change applies now.
 *
 * One change at a time per account: a claim on the account covers the provider call and the write,
 * so two concurrent requests cannot each tell the provider something different; the second is 409.
 * The write itself is conditioned on the plan read (plan-writes.ts), so a provider event landing in
 * between is never lost.
 */
import { randomUUID } from 'node:crypto';
import { accountAt, type Account } from '#domain/account';
import { billingPeriodOf } from '#domain/billing-period';
import { AppError, notFound } from '#domain/errors';
import { changedPlan, planInForce, type PlanChangeOutcome } from '#domain/plan-change';
import type { PlanName } from '#domain/plans';
import type { PlanRecord } from '#ports/account-store';
import type { Ports } from '#ports/ports';
import { billingFailure, planRecordOf, writePlanChange } from './plan-writes';

export type ChangePlanDeps = Pick<Ports, 'accounts' | 'billing' | 'now'>;

export interface ChangePlanInput {
  accountId: number;
  to: PlanName;
  /** The studio page a checkout comes back to. */
  returnUrl: string;
}

/** `checkout`: the owner pays at `checkoutUrl` first, and the account is as it was until then. */
export interface PlanChangeResult {
  account: Account;
  change: PlanChangeOutcome | 'checkout';
  checkoutUrl: string | null;
}

/** Long enough for the provider's slowest answer; a claim left by a crashed request lapses by then. */
const CLAIM_MS = 60_000;

export async function changePlan(deps: ChangePlanDeps, input: ChangePlanInput): Promise<PlanChangeResult> {
  const now = deps.now();
  const before = await planRecordOf(deps, input.accountId);
  // Asking for what is already so asks nothing of the provider and takes no claim.
  if (changedPlan(before.state, input.to, now).outcome === 'unchanged') return result(deps, input.accountId, before, 'unchanged', null);

  const token = randomUUID();
  if (!(await deps.accounts.claimPlanChange(input.accountId, token, new Date(now.getTime() + CLAIM_MS), now))) {
    throw new AppError('conflict', 'Another change of this account\'s plan is in progress; retry in a few seconds', { headers: { 'retry-after': '2' } });
  }
  try {
    return await changeClaimed(deps, input, now);
  } finally {
    await deps.accounts.releasePlanChange(input.accountId, token);
  }
}

async function changeClaimed(deps: ChangePlanDeps, input: ChangePlanInput, now: Date): Promise<PlanChangeResult> {
  // Read again under the claim: a change that held it before may have moved the plan.
  const record = await planRecordOf(deps, input.accountId);
  const { outcome } = changedPlan(record.state, input.to, now);
  if (outcome === 'unchanged') return result(deps, input.accountId, record, 'unchanged', null);

  let step;
  try {
    step = await deps.billing.prepareChange({
      accountId: input.accountId,
      from: planInForce(record.state, now),
      to: input.to,
      outcome,
      periodEnd: new Date(billingPeriodOf(now).end),
      subscription: record.subscription,
      returnUrl: input.returnUrl,
    });
  } catch (error) {
    throw billingFailure(error);
  }
  if (step.kind === 'checkout') return result(deps, input.accountId, record, 'checkout', step.url);

  const written = await writePlanChange(deps, input.accountId, (current) => changedPlan(current.state, input.to, now));
  return result(deps, input.accountId, written.record, written.outcome, null);
}

async function result(deps: ChangePlanDeps, accountId: number, record: PlanRecord, change: PlanChangeResult['change'], checkoutUrl: string | null): Promise<PlanChangeResult> {
  const account = await deps.accounts.get(accountId);
  if (!account) throw notFound('Account');
  // The plan fields as this request left them (the profile read may lag a strongly consistent write).
  return { account: accountAt({ ...account, ...record.state }, deps.now()), change, checkoutUrl };
}
