/** The plan rules: an upgrade holds at once, a downgrade waits for the next billing period, and the limits follow the plan in force. */
import { accountAt, limitsAt, type Account } from '#domain/account';
import { changedPlan, planInForce, settledPlan, type PlanState } from '#domain/plan-change';
import { isUpgrade, planOf, planView, PLAN_NAMES } from '#domain/plans';

const MID_NOVEMBER = new Date('2026-11-15T10:00:00.000Z');
const DECEMBER_1 = '2026-12-01T00:00:00.000Z';
const on = (plan: PlanState['plan']): PlanState => ({ plan, pending_plan: null, plan_changes_at: null });

describe('changing plans', () => {
  test('an upgrade holds at once and drops nothing to wait for', () => {
    expect(changedPlan(on('free'), 'pro', MID_NOVEMBER)).toEqual({ state: on('pro'), outcome: 'upgraded' });
  });

  test('a downgrade waits for the next billing period (the next calendar month, UTC); the plan in force stays until then', () => {
    const { state, outcome } = changedPlan(on('business'), 'starter', MID_NOVEMBER);
    expect(outcome).toBe('downgrade_scheduled');
    expect(state).toEqual({ plan: 'business', pending_plan: 'starter', plan_changes_at: DECEMBER_1 });
    expect(planInForce(state, new Date('2026-11-30T23:59:59.999Z'))).toBe('business');
    expect(planInForce(state, new Date(DECEMBER_1))).toBe('starter');
  });

  test('a downgrade asked for on the last instant of a month still waits for the next one', () => {
    const { state } = changedPlan(on('pro'), 'free', new Date('2026-12-31T23:59:59.999Z'));
    expect(state.plan_changes_at).toBe('2027-01-01T00:00:00.000Z');
  });

  test('asking for the plan in force again cancels a waiting downgrade', () => {
    const waiting = changedPlan(on('pro'), 'free', MID_NOVEMBER).state;
    expect(changedPlan(waiting, 'pro', MID_NOVEMBER)).toEqual({ state: on('pro'), outcome: 'downgrade_cancelled' });
  });

  test('an upgrade while a downgrade waits replaces it; another downgrade replaces the waiting one', () => {
    const waiting = changedPlan(on('pro'), 'starter', MID_NOVEMBER).state;
    expect(changedPlan(waiting, 'business', MID_NOVEMBER)).toEqual({ state: on('business'), outcome: 'upgraded' });
    expect(changedPlan(waiting, 'free', MID_NOVEMBER)).toEqual({ state: { plan: 'pro', pending_plan: 'free', plan_changes_at: DECEMBER_1 }, outcome: 'downgrade_scheduled' });
  });

  test('asking for what is already so changes nothing: the plan in force, or the downgrade already waiting', () => {
    expect(changedPlan(on('starter'), 'starter', MID_NOVEMBER)).toEqual({ state: on('starter'), outcome: 'unchanged' });
    const waiting = changedPlan(on('pro'), 'starter', MID_NOVEMBER).state;
    expect(changedPlan(waiting, 'starter', MID_NOVEMBER)).toEqual({ state: waiting, outcome: 'unchanged' });
  });

  test('a change is decided on the plan in force: after a downgrade took over, the old plan is an upgrade again', () => {
    const waiting = changedPlan(on('pro'), 'starter', MID_NOVEMBER).state;
    const inDecember = new Date('2026-12-03T08:00:00.000Z');
    expect(settledPlan(waiting, inDecember)).toEqual(on('starter'));
    expect(changedPlan(waiting, 'pro', inDecember)).toEqual({ state: on('pro'), outcome: 'upgraded' });
    expect(changedPlan(waiting, 'starter', inDecember)).toEqual({ state: on('starter'), outcome: 'unchanged' });
  });
});

describe('the limits follow the plan in force', () => {
  const account: Account = { id: 1, name: 'Acme', ...changedPlan(on('business'), 'free', MID_NOVEMBER).state, created_at: '2026-01-01T00:00:00.000Z' };

  test('until the period ends a downgraded account keeps what it paid for, then has the smaller plan', () => {
    expect(limitsAt(account, MID_NOVEMBER)).toBe(planOf('business'));
    expect(limitsAt(account, new Date(DECEMBER_1))).toBe(planOf('free'));
    expect(limitsAt(account, new Date(DECEMBER_1)).monthlyVideos).toBe(3);
  });

  test('the account as shown settles a downgrade whose time has come', () => {
    expect(accountAt(account, MID_NOVEMBER)).toEqual({ ...account, plan: 'business', pending_plan: 'free', plan_changes_at: DECEMBER_1 });
    expect(accountAt(account, new Date(DECEMBER_1))).toEqual({ ...account, plan: 'free', pending_plan: null, plan_changes_at: null });
  });
});

describe('the plan table', () => {
  test('plans are listed from the smallest to the largest: each later one is an upgrade, with more of everything and a higher price', () => {
    for (const [i, name] of PLAN_NAMES.entries()) {
      const next = PLAN_NAMES[i + 1];
      if (!next) continue;
      expect(isUpgrade(name, next)).toBe(true);
      expect(isUpgrade(next, name)).toBe(false);
      const [small, large] = [planOf(name), planOf(next)];
      for (const field of ['priceCents', 'monthlyVideos', 'libraryCap', 'avatarCap', 'aiHelpersPerDay', 'aiHelpersPerMinute'] as const) {
        expect(large[field]).toBeGreaterThan(small[field]);
      }
    }
  });

  test('the free plan costs nothing; a plan as GET /plans lists it carries its price in cents and every limit', () => {
    expect(planView('free').price).toEqual({ amount: 0, currency: 'usd', interval: 'month' });
    expect(planView('pro')).toEqual({
      name: 'pro',
      price: { amount: 4900, currency: 'usd', interval: 'month' },
      monthly_allowance: 150,
      library_cap: 50,
      avatar_cap: 100,
      ai_helpers_per_day: 500,
      ai_helpers_per_minute: 20,
      video_retention_days: 365,
    });
  });

  test('a larger plan keeps videos at least as long as a smaller one', () => {
    const days = PLAN_NAMES.map((name) => planView(name).video_retention_days);
    expect(days).toEqual([...days].sort((a, b) => a - b));
    expect(days.every((d) => d > 0)).toBe(true);
  });
});
