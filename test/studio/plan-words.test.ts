/** The Plans page's words (studio/src/pages/plans/plan-words.ts), from the service's own plan table. */
import type { Plan } from '#client/types';
import { PLAN_NAMES, planView } from '#domain/plans';
import { changeWords, currentPlanLine, planRow, priceOf } from '../../studio/src/pages/plans/plan-words';

// GET /plans answers planView's objects; its currency is the one literal the contract names.
const PLANS = PLAN_NAMES.map(planView) as Plan[];
const [free, starter, pro, business] = PLANS as [Plan, Plan, Plan, Plan];
const onPlan = (plan: (typeof PLAN_NAMES)[number], pending: (typeof PLAN_NAMES)[number] | null = null) => ({ plan, pending_plan: pending, plan_changes_at: pending ? '2026-12-01T00:00:00.000Z' : null });

test('prices: the free plan is "Free", the others dollars a month', () => {
  expect(PLANS.map((plan) => priceOf(plan.price))).toEqual(['Free', '$19 a month', '$49 a month', '$149 a month']);
  expect(priceOf({ amount: 1950, currency: 'usd', interval: 'month' })).toBe('$19.50 a month');
});

test('from the plan in force, a larger plan is an upgrade, a smaller one a downgrade, its own has no action', () => {
  const rows = PLANS.map((plan) => planRow(plan, onPlan('starter'), PLAN_NAMES, 'local'));
  expect(rows.map((row) => row.action?.label ?? row.badge)).toEqual(['Downgrade to Free', 'Current plan', 'Upgrade to Pro', 'Upgrade to Business']);
  expect(rows.map((row) => row.action?.kind ?? null)).toEqual(['downgrade', null, 'upgrade', 'upgrade']);
});

test('a waiting downgrade: the smaller plan shows when it takes over, and the plan in force can be kept', () => {
  const account = onPlan('pro', 'starter');
  expect(planRow(starter, account, PLAN_NAMES, 'local')).toEqual({ badge: 'From 1 December 2026', action: null, unavailable: null });
  expect(planRow(pro, account, PLAN_NAMES, 'local')).toEqual({ badge: 'Current plan', action: { kind: 'keep', label: 'Keep Pro' }, unavailable: null });
  expect(planRow(business, account, PLAN_NAMES, 'local').action).toEqual({ kind: 'upgrade', label: 'Upgrade to Business' });
  expect(currentPlanLine(account)).toBe("You are on the Pro plan. It changes to Starter on 1 December 2026, when the next billing period starts; until then Pro's allowance and limits hold.");
  expect(currentPlanLine(onPlan('free'))).toBe('You are on the Free plan.');
});

test('without a payment provider only the free plan can be chosen', () => {
  expect(planRow(pro, onPlan('free'), PLAN_NAMES, 'not_configured')).toMatchObject({ action: null, unavailable: 'Paid plans are not available on this deployment.' });
  expect(planRow(free, onPlan('pro'), PLAN_NAMES, 'not_configured').action).toEqual({ kind: 'downgrade', label: 'Downgrade to Free' });
});

test('what a change did, in words', () => {
  expect(changeWords({ change: 'upgraded', account: { ...onPlan('pro'), id: 1, name: 'a', created_at: '' } }).title).toBe('You are on Pro now');
  expect(changeWords({ change: 'downgrade_scheduled', account: { ...onPlan('pro', 'free'), id: 1, name: 'a', created_at: '' } })).toEqual({ title: 'Free from 1 December 2026', message: 'Pro and its allowance stay until then.' });
  expect(changeWords({ change: 'downgrade_cancelled', account: { ...onPlan('pro'), id: 1, name: 'a', created_at: '' } }).title).toBe('Pro stays');
});
