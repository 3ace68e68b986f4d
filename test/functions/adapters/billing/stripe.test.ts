/**
 * The Stripe adapter held to Stripe's official SDK over real HTTP: the SDK pointed at the Stripe
 * sandbox (lib/local/sandboxes/stripe), whose webhooks are signed as Stripe signs them and go to a
 * receiver that verifies and applies them as the webhook route does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { stripeBilling, stripeCredentialsFromSecret } from '#adapters/billing/stripe';
import { startStripeSandbox, STRIPE_SANDBOX, type StripeSandbox } from '#local/sandboxes/stripe/index';
import { receiveBillingEvent, type BillingEventResult } from '#use-cases/apply-billing-event';
import { BillingError, type Billing, type PlanChangeRequest } from '#ports/billing';
import type { SubscriptionLink } from '#ports/account-store';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { testDependencies } from '#test-support/wiring';

const { floor } = Math;
const PERIOD_END = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));
const RETURN_URL = 'http://127.0.0.1:3000/plans';

let sandbox: StripeSandbox;
let billing: Billing;
let receiver: Server;
let accounts: MemoryAccountStore;
/** What the receiver answered each delivery, in order. */
let received: { status: number; result?: BillingEventResult }[];

beforeAll(async () => {
  sandbox = await startStripeSandbox();
  const url = new URL(sandbox.url);
  billing = stripeBilling({
    credentials: async () => ({ secretKey: STRIPE_SANDBOX.secretKey, webhookSecret: STRIPE_SANDBOX.webhookSecret }),
    prices: STRIPE_SANDBOX.prices,
    api: { host: url.hostname, port: Number(url.port), protocol: 'http' },
  });
  // The webhook route's work, on the raw bytes as they came.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const deps = testDependencies({ accounts, billing, now: () => new Date() });
      receiveBillingEvent(deps, Buffer.concat(chunks), req.headers['stripe-signature'] as string | undefined).then(
        (result) => {
          received.push({ status: 200, result });
          res.writeHead(200).end();
        },
        (error: { status?: number }) => {
          received.push({ status: error.status ?? 500 });
          res.writeHead(error.status ?? 500).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sandbox.control.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/billing/stripe/webhook`);
});
afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(() => {
  accounts = new MemoryAccountStore();
  received = [];
  sandbox.control.faults.clearFaults();
});

const request = (accountId: number, changes: Partial<PlanChangeRequest>): PlanChangeRequest => ({
  accountId,
  from: 'free',
  to: 'pro',
  outcome: 'upgraded',
  periodEnd: PERIOD_END,
  subscription: null,
  returnUrl: RETURN_URL,
  ...changes,
});

/** A free account that bought pro through a checkout: its subscription link, as the webhook left it. */
async function subscribedAccount(): Promise<{ accountId: number; link: SubscriptionLink }> {
  const { id: accountId } = await accounts.create('Acme', 'free');
  const step = await billing.prepareChange(request(accountId, {}));
  if (step.kind !== 'checkout') throw new Error('expected a checkout');
  sandbox.control.completeCheckout(step.url.split('/').at(-1)!);
  await sandbox.control.deliveriesSettled();
  const link = (await accounts.planRecord(accountId))!.subscription!;
  received = [];
  return { accountId, link };
}

describe('a paid plan without a subscription', () => {
  test('is a Checkout Session in subscription mode for the plan\'s price, anchored on the next period, returning to the studio', async () => {
    const step = await billing.prepareChange(request(7, {}));
    expect(step).toEqual({ kind: 'checkout', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/) });
    const session = sandbox.control.session((step as { url: string }).url.split('/').at(-1)!);
    expect(session).toMatchObject({
      mode: 'subscription',
      status: 'open',
      client_reference_id: '7',
      metadata: { account_id: '7', plan: 'pro' },
      success_url: `${RETURN_URL}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${RETURN_URL}?checkout=cancelled`,
    });
    expect(sandbox.control.counters.count('POST /v1/checkout/sessions')).toBeGreaterThan(0);
    // The hosted page a person opens: a Pay button, no card.
    const page = await fetch((step as { url: string }).url);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<button>Pay</button>');
  });

  test("paying sends checkout.session.completed, signed: verified, it upgrades the account at once and links Stripe's subscription", async () => {
    const { accountId, link } = await subscribedAccount();
    expect(link).toEqual({ provider: 'stripe', customer_id: expect.stringMatching(/^cus_/), subscription_id: expect.stringMatching(/^sub_/) });
    expect(await accounts.planRecord(accountId)).toMatchObject({ state: { plan: 'pro', pending_plan: null }, version: 1 });
    const types = sandbox.control.events().slice(-2).map((e) => e.type);
    expect(types).toEqual(['customer.subscription.created', 'checkout.session.completed']);
    expect(sandbox.control.subscription(link.subscription_id!)).toMatchObject({ metadata: { account_id: String(accountId), plan: 'pro' }, billing_cycle_anchor: PERIOD_END.getTime() / 1000 });
  });

  test('a checkout paid for another customer of the account is made for that customer', async () => {
    const { accountId, link } = await subscribedAccount();
    const step = await billing.prepareChange(request(accountId, { subscription: { ...link, subscription_id: null } }));
    expect(sandbox.control.session((step as { url: string }).url.split('/').at(-1)!)?.customer).toBe(link.customer_id);
  });
});

describe('webhook deliveries', () => {
  test('an event delivered twice changes the account once; the second is acknowledged as a duplicate', async () => {
    const { accountId } = await subscribedAccount();
    const paid = sandbox.control.events().findLast((e) => e.type === 'checkout.session.completed')!;
    expect(await sandbox.control.redeliver(paid.id)).toBe(200);
    expect(received).toEqual([{ status: 200, result: { status: 'duplicate' } }]);
    expect((await accounts.planRecord(accountId))?.version).toBe(1);
  });

  test('a body or signature that is not Stripe\'s is refused (400) and changes nothing', async () => {
    const { accountId } = await subscribedAccount();
    const deps = testDependencies({ accounts, billing, now: () => new Date() });
    const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'customer.subscription.deleted', data: { object: { id: 'sub_x' } } });
    const stripe = new Stripe(STRIPE_SANDBOX.secretKey);
    const forged = [
      ['no header', undefined],
      ['another secret', stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' })],
      ['an hour old', stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SANDBOX.webhookSecret, timestamp: floor(Date.now() / 1000) - 3600 })],
      ['garbage', 't=abc,v1=xyz'],
    ] as const;
    for (const [, header] of forged) {
      await expect(receiveBillingEvent(deps, Buffer.from(payload), header)).rejects.toMatchObject({ code: 'bad_request', status: 400 });
    }
    const signed = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SANDBOX.webhookSecret });
    await expect(receiveBillingEvent(deps, Buffer.from(`${payload} `), signed)).rejects.toMatchObject({ code: 'bad_request' });
    expect((await accounts.planRecord(accountId))?.version).toBe(1);
  });

  test('each event is read as the subscription stands now, so one delivered late cannot undo a later change', async () => {
    const { accountId, link } = await subscribedAccount();
    await billing.prepareChange(request(accountId, { from: 'pro', to: 'business', subscription: link }));
    await billing.prepareChange(request(accountId, { from: 'business', to: 'starter', outcome: 'downgrade_scheduled', subscription: link }));
    await sandbox.control.deliveriesSettled();
    const updates = sandbox.control.events().filter((e) => e.type === 'customer.subscription.updated').slice(-2);
    // Both updates read as starter (the price now), whichever order they arrive in.
    expect(received.map((r) => r.result)).toHaveLength(2);
    expect(received.map((r) => r.result)).toEqual(
      expect.arrayContaining([
        { status: 'applied', outcome: 'downgrade_scheduled' },
        { status: 'applied', outcome: 'unchanged' },
      ]),
    );
    expect(updates).toHaveLength(2);
    expect(await accounts.planRecord(accountId)).toMatchObject({ state: { plan: 'pro', pending_plan: 'starter' } });
  });

  test('events that change no plan (a subscription made, an invoice) are acknowledged and ignored', async () => {
    await subscribedAccount();
    const created = sandbox.control.events().findLast((e) => e.type === 'customer.subscription.created')!;
    await sandbox.control.redeliver(created.id);
    expect(received).toEqual([{ status: 200, result: { status: 'ignored', reason: 'customer.subscription.created events change no plan' } }]);
  });
});

describe('a subscription already there', () => {
  test('an upgrade swaps its price and invoices now; its update event reads as the new plan', async () => {
    const { accountId, link } = await subscribedAccount();
    expect(await billing.prepareChange(request(accountId, { from: 'pro', to: 'business', subscription: link }))).toEqual({ kind: 'apply' });
    expect(sandbox.control.subscription(link.subscription_id!)?.items.data[0]?.price.id).toBe(STRIPE_SANDBOX.prices.business);
    await sandbox.control.deliveriesSettled();
    expect(received).toEqual([{ status: 200, result: { status: 'applied', outcome: 'upgraded' } }]);
  });

  test('a declined card is payment_failed and leaves the subscription as it was', async () => {
    const { accountId, link } = await subscribedAccount();
    sandbox.control.declineNextCharge();
    const failed = billing.prepareChange(request(accountId, { from: 'pro', to: 'business', subscription: link }));
    await expect(failed).rejects.toBeInstanceOf(BillingError);
    await expect(failed).rejects.toMatchObject({ kind: 'payment_failed', message: expect.stringContaining('declined') });
    expect(sandbox.control.subscription(link.subscription_id!)?.items.data[0]?.price.id).toBe(STRIPE_SANDBOX.prices.pro);
  });

  test('to free, it ends when the period does; its end is a downgrade to free and keeps the customer', async () => {
    const { accountId, link } = await subscribedAccount();
    expect(await billing.prepareChange(request(accountId, { from: 'pro', to: 'free', outcome: 'downgrade_scheduled', subscription: link }))).toEqual({ kind: 'apply' });
    expect(sandbox.control.subscription(link.subscription_id!)?.cancel_at).toBe(PERIOD_END.getTime() / 1000);
    await sandbox.control.deliveriesSettled();
    // The update itself reads as the plan still paid for: nothing changes yet.
    expect(received).toEqual([{ status: 200, result: { status: 'applied', outcome: 'unchanged' } }]);
    sandbox.control.clock.set(PERIOD_END);
    try {
      sandbox.control.settle();
      await sandbox.control.deliveriesSettled();
    } finally {
      sandbox.control.clock.set(new Date());
    }
    expect(received.at(-1)).toEqual({ status: 200, result: { status: 'applied', outcome: 'downgrade_scheduled' } });
    expect((await accounts.planRecord(accountId))?.subscription).toEqual({ ...link, subscription_id: null });
  });

  test('back to the plan in force before the period ends takes the end back', async () => {
    const { accountId, link } = await subscribedAccount();
    await billing.prepareChange(request(accountId, { from: 'pro', to: 'free', outcome: 'downgrade_scheduled', subscription: link }));
    await billing.prepareChange(request(accountId, { from: 'pro', to: 'pro', outcome: 'downgrade_cancelled', subscription: link }));
    expect(sandbox.control.subscription(link.subscription_id!)).toMatchObject({ cancel_at: null, status: 'active' });
  });
});

describe('Stripe out of reach, and the configuration', () => {
  test('Stripe down (after the SDK\'s own retries) is unavailable, for the caller to retry', async () => {
    sandbox.control.faults.outage(5);
    await expect(billing.prepareChange(request(9, {}))).rejects.toMatchObject({ kind: 'unavailable' });
  });

  test('every paid plan needs its own price; the secret must hold both keys', () => {
    const credentials = async () => ({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x' });
    expect(() => stripeBilling({ credentials, prices: { starter: 'price_a', pro: 'price_b' } })).toThrow(/business/);
    expect(() => stripeBilling({ credentials, prices: { starter: 'price_a', pro: 'price_a', business: 'price_c' } })).toThrow(/both starter and pro/);
    expect(stripeCredentialsFromSecret('{"secret_key": "sk_live_1", "webhook_secret": "whsec_1"}')).toEqual({ secretKey: 'sk_live_1', webhookSecret: 'whsec_1' });
    expect(() => stripeCredentialsFromSecret('sk_live_1')).toThrow(/JSON/);
    expect(() => stripeCredentialsFromSecret('{"secret_key": "pk_live_1", "webhook_secret": "whsec_1"}')).toThrow(/JSON/);
  });
});
