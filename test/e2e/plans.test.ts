/**
 * Plans on the local stack over HTTP, as the studio uses them: the public plan table, a change made
 * with the owner's session (never a key), the allowance following the plan at once, downgrades
 * waiting for the next period, concurrent changes, and a paid plan bought through the Stripe sandbox.
 */
import { billingPeriodOf } from '#domain/billing-period';
import { apiClient, expectError, startTestStack, type ApiResponse, type TestStack } from '#test-support/local-stack';

const { floor, random } = Math;
const PASSWORD = 'correct horse battery';
const NEXT_PERIOD = billingPeriodOf(new Date()).end;

/** A browser tab signed in to the studio: its session cookie and CSRF token on every request. */
class Tab {
  private cookie = '';
  private csrf = '';
  constructor(private readonly apiUrl: string) {}

  async signUp(email: string): Promise<ApiResponse> {
    const res = await apiClient(this.apiUrl).post('/auth/signup', { email, password: PASSWORD });
    this.cookie = res.headers.getSetCookie().find((c) => c.startsWith('rs_session='))!.split(';')[0]!;
    this.csrf = res.body.data.csrf_token;
    return res;
  }

  send(method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return apiClient(this.apiUrl).send(method, path, { json, headers: { cookie: this.cookie, 'x-csrf-token': this.csrf, ...headers } });
  }

  changePlan(plan: string): Promise<ApiResponse> {
    return this.send('PUT', '/account/plan', { plan });
  }
}

describe('plans, without payment (the local stack\'s default)', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(() => t?.stop());

  async function signedUp(): Promise<Tab> {
    const tab = new Tab(t.stack.apiUrl);
    expect((await tab.signUp(`owner-${random().toString(36).slice(2)}@example.com`)).status).toBe(201);
    return tab;
  }

  test('GET /plans is public: every plan with its price and limits, and how paid plans are taken here', async () => {
    const res = await apiClient(t.stack.apiUrl).get('/plans');
    expect(res.status).toBe(200);
    expect(res.body.data.billing).toBe('local');
    expect(res.body.data.plans.map((p: { name: string }) => p.name)).toEqual(['free', 'starter', 'pro', 'business']);
    expect(res.body.data.plans[0]).toMatchObject({ name: 'free', price: { amount: 0, currency: 'usd', interval: 'month' }, monthly_allowance: 3 });
    expect(res.body.data.plans[2]).toMatchObject({ name: 'pro', price: { amount: 4900 }, monthly_allowance: 150, library_cap: 50, avatar_cap: 100, ai_helpers_per_day: 500 });
  });

  test('sign up, then an upgrade from the session raises the allowance at once; the units already taken still count', async () => {
    const tab = await signedUp();
    t.holdJobs();
    const product = await tab.send('POST', '/products', { name: 'Glow serum' });
    const job = { product_id: product.body.data.id, method: 'prompt', mode: 'auto', prompt: 'shocked by the price' };
    for (let i = 0; i < 3; i++) expect((await tab.send('POST', '/videos', job)).status).toBe(202);
    const refused = await tab.send('POST', '/videos', job);
    expectError(refused, 402, 'allowance_exhausted');
    expect(refused.body.error).toContain('PUT /account/plan');

    const changed = await tab.changePlan('starter');
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ change: 'upgraded', checkout_url: null, account: { plan: 'starter', pending_plan: null, plan_changes_at: null } });
    const usage = (await tab.send('GET', '/usage')).body.data;
    expect(usage.plan).toMatchObject({ name: 'starter', monthly_allowance: 30, library_cap: 10, avatar_cap: 25, ai_helpers_per_minute: 10, pending_plan: null });
    expect(usage.allowance).toEqual({ limit: 30, used: 0, reserved: 3, remaining: 27 });
    expect((await tab.send('POST', '/videos', job)).status).toBe(202);
    expect((await tab.send('GET', '/account')).body.data).toMatchObject({ plan: 'starter' });
    t.runner.reset();
  });

  test('a downgrade waits for the next period: the account and the usage show it coming, the allowance stays', async () => {
    const tab = await signedUp();
    await tab.changePlan('business');
    const changed = await tab.changePlan('starter');
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ change: 'downgrade_scheduled', account: { plan: 'business', pending_plan: 'starter', plan_changes_at: NEXT_PERIOD } });
    expect((await tab.send('GET', '/account')).body.data).toMatchObject({ plan: 'business', pending_plan: 'starter', plan_changes_at: NEXT_PERIOD });
    const usage = (await tab.send('GET', '/usage')).body.data;
    expect(usage.plan).toMatchObject({ name: 'business', monthly_allowance: 600, pending_plan: 'starter', plan_changes_at: NEXT_PERIOD });
    expect(usage.allowance.limit).toBe(600);
    expect((await tab.changePlan('business')).body.data).toMatchObject({ change: 'downgrade_cancelled', account: { pending_plan: null } });
  });

  test('with an API key it is 403, even with every scope: plans change only from the studio\'s session', async () => {
    const tab = await signedUp();
    const key = (await tab.send('POST', '/keys', { name: 'CI' })).body.data.key as string;
    const res = await apiClient(t.stack.apiUrl, key).put('/account/plan', { plan: 'business' });
    expectError(res, 403, 'forbidden');
    expect(res.body.error).toMatch(/studio's session/);
    expect((await apiClient(t.stack.apiUrl, key).get('/usage')).body.data.plan.name).toBe('free');
    // A key and the cookie together: the key wins, and is refused.
    expectError(await tab.send('PUT', '/account/plan', { plan: 'business' }, { authorization: `Bearer ${key}` }), 403, 'forbidden');
  });

  test('the cookie alone, without the CSRF token, or with a plan that does not exist, changes nothing', async () => {
    const tab = await signedUp();
    expectError(await tab.send('PUT', '/account/plan', { plan: 'pro' }, { 'x-csrf-token': '' }), 403, 'forbidden');
    const unknown = await tab.changePlan('platinum');
    expectError(unknown, 400, 'bad_request');
    expect(unknown.body.param).toBe('plan');
    expectError(await apiClient(t.stack.apiUrl).put('/account/plan', { plan: 'pro' }), 401, 'unauthorized');
    expect((await tab.send('GET', '/account')).body.data.plan).toBe('free');
  });

  test('concurrent changes leave one consistent state: each is applied or 409, and the account is the last one applied', async () => {
    const tab = await signedUp();
    const asked = ['business', 'starter', 'pro', 'free', 'business', 'pro', 'starter', 'free'];
    const applied: ApiResponse[] = [];
    const answers = await Promise.all(asked.map((plan) => tab.changePlan(plan).then((res) => (res.status === 200 && applied.push(res), res))));
    for (const res of answers) expect([200, 409]).toContain(res.status);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.headers.get('retry-after')).toBe('2');
    expect(applied.length).toBeGreaterThan(0);
    const account = (await tab.send('GET', '/account')).body.data;
    expect(account).toEqual(applied.at(-1)!.body.data.account);
    const usage = (await tab.send('GET', '/usage')).body.data;
    const plans = (await apiClient(t.stack.apiUrl).get('/plans')).body.data.plans as { name: string; monthly_allowance: number }[];
    expect(usage.plan).toMatchObject({ name: account.plan, pending_plan: account.pending_plan, plan_changes_at: account.plan_changes_at });
    expect(usage.allowance.limit).toBe(plans.find((p) => p.name === account.plan)!.monthly_allowance);
    // Consistent: a waiting plan is always smaller than the one in force, and due at the next period.
    if (account.pending_plan !== null) {
      expect(plans.findIndex((p) => p.name === account.pending_plan)).toBeLessThan(plans.findIndex((p) => p.name === account.plan));
      expect(account.plan_changes_at).toBe(NEXT_PERIOD);
    }
  });

  test('there is no Stripe webhook on a stack that takes no payments', async () => {
    expectError(await apiClient(t.stack.apiUrl).post('/billing/stripe/webhook', { id: 'evt_1', type: 'checkout.session.completed', data: { object: { id: 'cs_1' } } }), 404, 'not_found');
  });
});

describe('a paid plan through the Stripe sandbox (BILLING=stripe-sandbox)', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack({ billing: { kind: 'stripe-sandbox' } });
  });
  afterAll(() => t?.stop());

  test('PUT answers a Checkout link and changes nothing; paying sends Stripe\'s signed event, which upgrades the account once', async () => {
    const tab = new Tab(t.stack.apiUrl);
    await tab.signUp('buyer@example.com');
    expect((await apiClient(t.stack.apiUrl).get('/plans')).body.data.billing).toBe('stripe');
    const changed = await tab.changePlan('pro');
    expect(changed.status).toBe(202);
    expect(changed.body.data).toMatchObject({ change: 'checkout', checkout_url: expect.stringContaining('/c/pay/cs_test_'), account: { plan: 'free' } });
    expect((await tab.send('GET', '/account')).body.data.plan).toBe('free');

    // The owner pays on the hosted page, which sends them back to the studio's Plans page.
    const paid = await fetch(changed.body.data.checkout_url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(new RegExp(`^${new URL(t.stack.apiUrl).origin}/plans\\?checkout=success&session_id=cs_test_`));
    const stripe = t.stack.billing.sandbox!.control;
    await stripe.deliveriesSettled();
    expect((await tab.send('GET', '/usage')).body.data.plan).toMatchObject({ name: 'pro', monthly_allowance: 150 });

    // Stripe retries a delivery it thinks failed: the same event again changes nothing.
    const completed = stripe.events().find((e) => e.type === 'checkout.session.completed')!;
    expect(completed.deliveries).toEqual([200]);
    expect(await stripe.redeliver(completed.id)).toBe(200);
    expect((await tab.send('GET', '/account')).body.data).toMatchObject({ plan: 'pro', pending_plan: null });

    // A change within the subscription applies at once (an upgrade is invoiced there and then).
    expect((await tab.changePlan('business')).body.data).toMatchObject({ change: 'upgraded', account: { plan: 'business' } });
    await stripe.deliveriesSettled();
    expect((await tab.send('GET', '/account')).body.data).toMatchObject({ plan: 'business', pending_plan: null });
  });

  test('a delivery whose signature does not match is 400 and changes nothing', async () => {
    const res = await apiClient(t.stack.apiUrl).send('POST', '/billing/stripe/webhook', {
      json: { id: 'evt_forged', type: 'checkout.session.completed', data: { object: { id: 'cs_x' } } },
      headers: { 'stripe-signature': `t=${floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
    });
    expectError(res, 400, 'bad_request');
    expect(res.body.error).toMatch(/Stripe-Signature/);
  });
});
