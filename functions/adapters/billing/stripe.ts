/**
 * The billing port on Stripe, through Stripe's official SDK only (docs/billing.md).
 *
 * - A paid plan with no subscription yet: a Checkout Session (mode `subscription`, the plan's price),
 *   whose subscription is anchored on the next billing period's start, so Stripe's periods are this
 *   service's calendar months (the part-month until then is prorated). The account changes when
 *   Stripe reports the paid checkout.
 * - A subscription already there: its price is swapped. An upgrade is invoiced at once and must be
 *   paid (a declined card changes nothing); a downgrade is not prorated, so the next period's invoice
 *   is the smaller price, the very moment the smaller plan takes over.
 * - To the free plan: the subscription is set to end at the next period's start.
 *
 * Webhook deliveries are verified with `stripe.webhooks.constructEvent` and the signing secret. Every
 * event is answered with the subscription as it stands now (retrieved again), not as it stood when
 * the event was made: Stripe does not deliver events in order.
 */
import Stripe from 'stripe';
import { isPaidPlan, PLAN_NAMES, type PlanName } from '#domain/plans';
import type { SubscriptionLink } from '#ports/account-store';
import { BillingError, type Billing, type BillingEvent, type BillingStep, type PlanChangeRequest } from '#ports/billing';

export interface StripeCredentials {
  /** The secret API key (`sk_live_…`, `sk_test_…`). */
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
}

export interface StripeBillingOptions {
  /** Read once, on first use (from Secrets Manager on AWS); a failed read is tried again next time. */
  credentials: () => Promise<StripeCredentials>;
  /** The Stripe price of each paid plan (a monthly recurring price charging the plan's price). */
  prices: Readonly<Partial<Record<PlanName, string>>>;
  /** Where Stripe's API is, when not at api.stripe.com: the sandbox (lib/local/sandboxes/stripe). */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

/** Statuses whose subscription is paid for (past_due: Stripe is still retrying the payment). */
const LIVE = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due']);
const ENDED = new Set<Stripe.Subscription.Status>(['canceled', 'unpaid', 'incomplete_expired']);

const epochS = (at: Date) => Math.floor(at.getTime() / 1000);
const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === 'string' ? value : value.id);

/** Every paid plan has its price, and no price is two plans': checked when the adapter is made. */
function pricesByPlan(prices: StripeBillingOptions['prices']): Map<string, PlanName> {
  const byPrice = new Map<string, PlanName>();
  for (const plan of PLAN_NAMES.filter(isPaidPlan)) {
    const price = prices[plan];
    if (!price) throw new Error(`Stripe billing needs the price id of the ${plan} plan`);
    if (byPrice.has(price)) throw new Error(`Stripe price ${price} is named for both ${byPrice.get(price)} and ${plan}`);
    byPrice.set(price, plan);
  }
  return byPrice;
}

export function stripeBilling(options: StripeBillingOptions): Billing {
  const planOfPrice = pricesByPlan(options.prices);
  let connected: Promise<{ stripe: Stripe; webhookSecret: string }> | undefined;
  const connect = () =>
    (connected ??= options.credentials().then(
      ({ secretKey, webhookSecret }) => ({
        stripe: new Stripe(secretKey, { ...options.api, maxNetworkRetries: 2, timeout: 10_000 }),
        webhookSecret,
      }),
      (error: unknown) => {
        connected = undefined;
        throw new BillingError('unavailable', 'The Stripe credentials could not be read; retry in a moment', { cause: error });
      },
    ));

  const priceOf = (plan: PlanName) => options.prices[plan]!;

  async function prepareChange(request: PlanChangeRequest): Promise<BillingStep> {
    const { stripe } = await connect();
    const subscriptionId = request.subscription?.subscription_id ?? null;
    const metadata = { account_id: String(request.accountId), plan: request.to };
    if (!isPaidPlan(request.to)) {
      // Paid until the period ends, and not a day longer.
      if (subscriptionId) await stripe.subscriptions.update(subscriptionId, { cancel_at: epochS(request.periodEnd), proration_behavior: 'none', metadata });
      return { kind: 'apply' };
    }
    if (!subscriptionId) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: priceOf(request.to), quantity: 1 }],
        client_reference_id: String(request.accountId),
        ...(request.subscription ? { customer: request.subscription.customer_id } : {}),
        metadata,
        subscription_data: { metadata, billing_cycle_anchor: epochS(request.periodEnd), proration_behavior: 'create_prorations' },
        success_url: `${request.returnUrl}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${request.returnUrl}?checkout=cancelled`,
      });
      if (!session.url) throw new BillingError('unavailable', `Stripe made checkout session ${session.id} without a URL`);
      return { kind: 'checkout', url: session.url };
    }
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item`);
    const upgrade = request.outcome === 'upgraded';
    await stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item.id, price: priceOf(request.to) }],
      // A return to the plan in force also takes back an end set by an earlier move to free.
      cancel_at: '',
      proration_behavior: upgrade ? 'always_invoice' : 'none',
      ...(upgrade ? { payment_behavior: 'error_if_incomplete' as const } : {}),
      metadata,
    });
    return { kind: 'apply' };
  }

  /** The account a Stripe object belongs to, from the metadata the checkout put on it. */
  const accountIdOf = (metadata: Stripe.Metadata | null | undefined, fallback?: string | null) => {
    const raw = metadata?.account_id ?? fallback ?? '';
    return /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : null;
  };

  async function eventOf(stripe: Stripe, event: Stripe.Event): Promise<BillingEvent> {
    const ignored: BillingEvent = { id: event.id, kind: 'ignored', type: event.type };
    let subscriptionId: string | null;
    let accountHint: number | null = null;
    if (event.type === 'checkout.session.completed') {
      const session = event.data.object;
      if (session.mode !== 'subscription' || session.payment_status === 'unpaid') return ignored;
      subscriptionId = idOf(session.subscription);
      accountHint = accountIdOf(session.metadata, session.client_reference_id);
    } else if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
      subscriptionId = event.data.object.id;
    } else {
      return ignored;
    }
    if (!subscriptionId) return ignored;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const accountId = accountIdOf(subscription.metadata) ?? accountHint;
    const customerId = idOf(subscription.customer);
    if (accountId === null || customerId === null) return ignored;
    const link: SubscriptionLink = { provider: 'stripe', customer_id: customerId, subscription_id: subscription.id };
    if (ENDED.has(subscription.status)) return { id: event.id, kind: 'subscription_ended', accountId, subscription: link };
    if (!LIVE.has(subscription.status)) return ignored;
    const plan = planOfPrice.get(subscription.items.data[0]?.price.id ?? '');
    if (!plan) return ignored;
    return { id: event.id, kind: event.type === 'checkout.session.completed' ? 'subscribed' : 'subscription_changed', accountId, plan, subscription: link };
  }

  return {
    kind: 'stripe',
    prepareChange: (request) => stripeCall(() => prepareChange(request)),
    async readEvent(body, signature) {
      const { stripe, webhookSecret } = await connect();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(body, signature ?? '', webhookSecret);
      } catch (error) {
        throw new BillingError('signature', `The Stripe-Signature header does not sign this body with this endpoint's secret: ${(error as Error).message}`, { cause: error });
      }
      return stripeCall(() => eventOf(stripe, event));
    },
  };
}

/** Stripe's refusals as the port says them: a declined card, or Stripe out of reach; anything else is ours to fix (a 500). */
async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) throw new BillingError('payment_failed', `Stripe refused the payment: ${error.message}`, { cause: error });
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError
    ) {
      throw new BillingError('unavailable', 'Stripe did not answer properly; retry in a moment', { cause: error });
    }
    throw error;
  }
}

/** The secret as the stack's operator stores it: `{"secret_key": "sk_…", "webhook_secret": "whsec_…"}`. */
export function stripeCredentialsFromSecret(text: string): StripeCredentials {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const fields = (parsed ?? {}) as Record<string, unknown>;
  const secretKey = fields.secret_key;
  const webhookSecret = fields.webhook_secret;
  if (typeof secretKey !== 'string' || !/^(sk|rk)_/.test(secretKey) || typeof webhookSecret !== 'string' || !webhookSecret.startsWith('whsec_')) {
    throw new Error('the Stripe secret must be JSON {"secret_key": "sk_…", "webhook_secret": "whsec_…"}');
  }
  return { secretKey, webhookSecret };
}
