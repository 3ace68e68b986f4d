/** PUT /account/plan and the payment provider's events, over in-memory stores and a recording billing port. */
import { changePlan } from '#use-cases/change-plan';
import { applyBillingEvent, receiveBillingEvent } from '#use-cases/apply-billing-event';
import { quoteOf, reservationOf } from '#use-cases/job-references';
import { BillingError, type BillingEvent } from '#ports/billing';
import type { PlanName } from '#domain/plans';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryAllowanceLedger } from '#test-doubles/memory/allowance-ledger';
import { RecordingBilling } from '#test-doubles/billing';
import { testDependencies } from '#test-support/wiring';

const MID_NOVEMBER = new Date('2026-11-15T10:00:00.000Z');
const DECEMBER_1 = '2026-12-01T00:00:00.000Z';
const RETURN_URL = 'http://127.0.0.1:3000/plans';

async function world(plan: PlanName = 'free', billing = new RecordingBilling()) {
  const accounts = new MemoryAccountStore();
  const ledger = new MemoryAllowanceLedger();
  let now = MID_NOVEMBER;
  const deps = testDependencies({ accounts, ledger, billing, now: () => now });
  const { id: accountId } = await accounts.create('Acme', plan, MID_NOVEMBER);
  const change = (to: PlanName) => changePlan(deps, { accountId, to, returnUrl: RETURN_URL });
  return { deps, accounts, ledger, billing, accountId, change, setNow: (at: string) => void (now = new Date(at)) };
}

/** `count` units of the account's allowance used this period. */
function useUnits(ledger: MemoryAllowanceLedger, accountId: number, count: number, limit: number): void {
  for (let jobId = 1; jobId <= count; jobId++) ledger.reserve({ ref: { accountId, jobId, chargeNumber: 1 }, period: '2026-11', limit }, MID_NOVEMBER);
}

describe('changing the plan', () => {
  test('an upgrade holds at once: the allowance rises now, and the units already used still count', async () => {
    const { deps, ledger, accountId, change } = await world('free');
    useUnits(ledger, accountId, 3, 3);
    await expect(quoteOf(deps, accountId, 1, 10, MID_NOVEMBER)).rejects.toMatchObject({ code: 'allowance_exhausted', message: expect.stringContaining('PUT /account/plan') });

    const result = await change('starter');
    expect(result).toEqual({ account: expect.objectContaining({ plan: 'starter', pending_plan: null, plan_changes_at: null }), change: 'upgraded', checkoutUrl: null });
    const quote = await quoteOf(deps, accountId, 1, 10, MID_NOVEMBER);
    expect(quote.allowance).toEqual({ limit: 30, used: 0, reserved: 3, remaining: 27 });
    expect((await reservationOf(deps, { accountId, jobId: 9, chargeNumber: 1 }, MID_NOVEMBER)).limit).toBe(30);
  });

  test('a downgrade waits for the next period: the allowance stays until then, and falls when the period starts', async () => {
    const { deps, billing, accountId, change, setNow } = await world('pro');
    const result = await change('free');
    expect(result.change).toBe('downgrade_scheduled');
    expect(result.account).toMatchObject({ plan: 'pro', pending_plan: 'free', plan_changes_at: DECEMBER_1 });
    expect(billing.requests).toEqual([expect.objectContaining({ from: 'pro', to: 'free', outcome: 'downgrade_scheduled', periodEnd: new Date(DECEMBER_1), returnUrl: RETURN_URL })]);
    expect((await quoteOf(deps, accountId, 1, 10, MID_NOVEMBER)).allowance.limit).toBe(150);
    setNow(DECEMBER_1);
    expect((await quoteOf(deps, accountId, 1, 10, new Date(DECEMBER_1))).allowance.limit).toBe(3);
    expect(await deps.accounts.get(accountId)).toMatchObject({ plan: 'pro', pending_plan: 'free' });
  });

  test('asking for the plan in force again cancels the waiting downgrade', async () => {
    const { accounts, accountId, change } = await world('pro');
    await change('starter');
    const result = await change('pro');
    expect(result.change).toBe('downgrade_cancelled');
    expect(await accounts.get(accountId)).toMatchObject({ plan: 'pro', pending_plan: null, plan_changes_at: null });
  });

  test('asking for what is already so asks nothing of the provider and writes nothing', async () => {
    const { accounts, billing, accountId, change } = await world('starter');
    expect((await change('starter')).change).toBe('unchanged');
    expect(billing.requests).toEqual([]);
    expect((await accounts.planRecord(accountId))?.version).toBe(0);
  });

  test('a paid plan through a checkout changes nothing until the provider reports the payment', async () => {
    const { accounts, billing, accountId, change } = await world('free', new RecordingBilling('stripe'));
    billing.answers({ kind: 'checkout', url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    const result = await change('pro');
    expect(result).toEqual({ account: expect.objectContaining({ plan: 'free', pending_plan: null }), change: 'checkout', checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    expect(await accounts.planRecord(accountId)).toMatchObject({ state: { plan: 'free' }, version: 0 });
  });

  test.each([
    ['no payment provider', new BillingError('not_configured', 'This deployment takes no payments'), 'billing_not_configured', 409],
    ['a declined card', new BillingError('payment_failed', 'Stripe refused the payment: Your card was declined.'), 'payment_failed', 402],
    ['the provider down', new BillingError('unavailable', 'Stripe did not answer properly'), 'upstream_unavailable', 503],
  ])('%s: a 4xx or 503 in words, nothing written, and the next change is not held up', async (_label, error, code, status) => {
    const { accounts, billing, accountId, change } = await world('free');
    billing.answers(error);
    await expect(change('business')).rejects.toMatchObject({ code, status });
    expect((await accounts.planRecord(accountId))?.version).toBe(0);
    billing.answers({ kind: 'apply' });
    expect((await change('business')).change).toBe('upgraded');
  });

  test('a second change while one is talking to the provider is 409 with Retry-After; the first completes', async () => {
    const { accounts, billing, accountId, change } = await world('free');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    billing.answers(async () => {
      await held;
      return { kind: 'apply' };
    });
    const first = change('pro');
    while (billing.requests.length === 0) await new Promise((r) => setImmediate(r));
    await expect(change('business')).rejects.toMatchObject({ code: 'conflict', status: 409, headers: { 'retry-after': '2' } });
    release();
    expect((await first).change).toBe('upgraded');
    expect(await accounts.get(accountId)).toMatchObject({ plan: 'pro' });
    expect((await change('business')).change).toBe('upgraded');
  });

  test('concurrent changes leave one consistent state: each answer is a change or a 409, and the account is the last change applied', async () => {
    const { accounts, accountId, change } = await world('free');
    const asked: PlanName[] = ['starter', 'business', 'pro', 'free', 'pro', 'starter', 'business', 'free'];
    const applied: Awaited<ReturnType<typeof change>>[] = [];
    const outcomes = await Promise.allSettled(asked.map((plan) => change(plan).then((answer) => (applied.push(answer), answer))));
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as { code: string }] : []));
    expect(applied.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.code === 'conflict')).toBe(true);
    const record = await accounts.planRecord(accountId);
    const changed = applied.filter((a) => a.change !== 'unchanged');
    expect(record?.version).toBe(changed.length);
    expect(record?.state).toEqual({ plan: applied.at(-1)!.account.plan, pending_plan: applied.at(-1)!.account.pending_plan, plan_changes_at: applied.at(-1)!.account.plan_changes_at });
  });

  test("a provider event written while the change talks to the provider is kept: the change is decided again on what it left", async () => {
    const { deps, accounts, billing, accountId, change } = await world('free', new RecordingBilling('stripe'));
    const link = { provider: 'stripe' as const, customer_id: 'cus_1', subscription_id: 'sub_1' };
    billing.answers(async () => {
      await applyBillingEvent(deps, { id: 'evt_1', kind: 'subscribed', accountId, plan: 'business', subscription: link });
      return { kind: 'apply' };
    });
    const result = await change('pro');
    // Business arrived first; pro is then a downgrade, for the next period.
    expect(result.change).toBe('downgrade_scheduled');
    expect(await accounts.planRecord(accountId)).toEqual({ state: { plan: 'business', pending_plan: 'pro', plan_changes_at: DECEMBER_1 }, version: 2, subscription: link });
  });
});

describe("the payment provider's events", () => {
  const link = { provider: 'stripe' as const, customer_id: 'cus_1', subscription_id: 'sub_1' };
  const subscribed = (accountId: number, id = 'evt_paid'): BillingEvent => ({ id, kind: 'subscribed', accountId, plan: 'pro', subscription: link });

  test('a paid checkout upgrades at once and links the subscription', async () => {
    const { deps, accounts, accountId } = await world('free');
    expect(await applyBillingEvent(deps, subscribed(accountId))).toEqual({ status: 'applied', outcome: 'upgraded' });
    expect(await accounts.planRecord(accountId)).toEqual({ state: { plan: 'pro', pending_plan: null, plan_changes_at: null }, version: 1, subscription: link });
  });

  test('an event delivered again changes nothing, even after later events moved the plan on', async () => {
    const { deps, accounts, accountId } = await world('free');
    const toPro: BillingEvent = { id: 'evt_a', kind: 'subscription_changed', accountId, plan: 'pro', subscription: link };
    const toBusiness: BillingEvent = { id: 'evt_b', kind: 'subscription_changed', accountId, plan: 'business', subscription: link };
    expect(await applyBillingEvent(deps, toPro)).toEqual({ status: 'applied', outcome: 'upgraded' });
    expect(await applyBillingEvent(deps, toBusiness)).toEqual({ status: 'applied', outcome: 'upgraded' });
    // Were evt_a applied again, pro would be a downgrade scheduled for December.
    expect(await applyBillingEvent(deps, toPro)).toEqual({ status: 'duplicate' });
    expect(await accounts.planRecord(accountId)).toMatchObject({ state: { plan: 'business', pending_plan: null }, version: 2 });
  });

  test('the same event delivered twice at once is applied once', async () => {
    const { deps, accounts, accountId } = await world('free');
    const results = await Promise.all([applyBillingEvent(deps, subscribed(accountId)), applyBillingEvent(deps, subscribed(accountId))]);
    expect(results.map((r) => r.status).sort()).toEqual(['applied', 'duplicate']);
    expect((await accounts.planRecord(accountId))?.version).toBe(1);
  });

  test('an ended subscription is a downgrade to free at the next period; the customer stays linked', async () => {
    const { deps, accounts, accountId } = await world('free');
    await applyBillingEvent(deps, subscribed(accountId));
    expect(await applyBillingEvent(deps, { id: 'evt_end', kind: 'subscription_ended', accountId, subscription: link })).toEqual({ status: 'applied', outcome: 'downgrade_scheduled' });
    expect(await accounts.planRecord(accountId)).toMatchObject({
      state: { plan: 'pro', pending_plan: 'free', plan_changes_at: DECEMBER_1 },
      subscription: { provider: 'stripe', customer_id: 'cus_1', subscription_id: null },
    });
  });

  test("a report about a subscription the account has replaced changes nothing; one for an account that is not here is acknowledged", async () => {
    const { deps, accounts, accountId } = await world('free');
    await applyBillingEvent(deps, subscribed(accountId));
    const old = { ...link, subscription_id: 'sub_old' };
    expect(await applyBillingEvent(deps, { id: 'evt_old', kind: 'subscription_ended', accountId, subscription: old })).toEqual({ status: 'applied', outcome: 'unchanged' });
    expect(await accounts.planRecord(accountId)).toMatchObject({ state: { plan: 'pro', pending_plan: null }, subscription: link });
    expect(await applyBillingEvent(deps, subscribed(accountId + 50, 'evt_elsewhere'))).toEqual({ status: 'ignored', reason: `account ${accountId + 50} does not exist here` });
    expect(await applyBillingEvent(deps, { id: 'evt_x', kind: 'ignored', type: 'invoice.paid' })).toMatchObject({ status: 'ignored' });
  });

  test('a delivery the adapter cannot verify is 400 and changes nothing', async () => {
    const { deps, accounts, billing, accountId } = await world('free');
    billing.delivers('{"id":"evt_paid"}', subscribed(accountId));
    await expect(receiveBillingEvent(deps, Buffer.from('{"id":"evt_paid"}'), 't=1,v1=forged')).rejects.toMatchObject({ code: 'bad_request', status: 400 });
    expect((await accounts.planRecord(accountId))?.version).toBe(0);
    expect(await receiveBillingEvent(deps, Buffer.from('{"id":"evt_paid"}'), 'signed')).toEqual({ status: 'applied', outcome: 'upgraded' });
  });
});
