/**
 * Stripe sandbox: a loopback server speaking the part of Stripe's API the billing adapter uses, so
 * the adapter is held to Stripe's official SDK over real HTTP (the SDK pointed here with `host`,
 * `port` and `protocol: 'http'`), and plans can be bought on the local stack with no Stripe account
 * (`BILLING=stripe-sandbox`, docs/billing.md).
 *
 * Auth: `Authorization: Bearer <secretKey>` (default `sk_test_sandbox`); anything else is 401.
 * Errors are Stripe's shape, `{error: {type, code?, param?, message}}`, so the SDK raises its own
 * error classes (a declined card is a StripeCardError).
 *
 *   POST   /v1/checkout/sessions        mode=subscription, line_items[0][price] (a known price),
 *                                        success_url, cancel_url, customer?, client_reference_id?,
 *                                        metadata[..]?, subscription_data[metadata][..]?,
 *                                        subscription_data[billing_cycle_anchor]? (future) → the session
 *                                        {id cs_test_…, url, status open, payment_status unpaid, …}
 *   GET    /v1/checkout/sessions/:id     the session; 404 resource_missing
 *   GET    /v1/subscriptions/:id         {id sub_…, customer, status, metadata, cancel_at,
 *                                        billing_cycle_anchor, items: {data: [{id si_…, price: {id}}]}}
 *   POST   /v1/subscriptions/:id         items[0][id]+items[0][price], cancel_at ('' clears it),
 *                                        proration_behavior, payment_behavior, metadata[..] (merged)
 *                                        → the subscription; `always_invoice` after
 *                                        `control.declineNextCharge()` is 402 card_declined, unchanged
 *   DELETE /v1/subscriptions/:id         ends it now (status canceled)
 *   GET    /c/pay/:id                    the hosted checkout page (what `url` opens): a Pay button
 *   POST   /c/pay/:id                    pays the session (as `control.completeCheckout`), then 303
 *                                        to its success_url
 *
 * Events go to the webhook URL (`control.setWebhookUrl`) as Stripe sends them: a JSON event
 * `{id evt_…, object: "event", type, created, data: {object}}` with `Stripe-Signature:
 * t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the webhook secret>` (default
 * `whsec_sandbox`). Sent: checkout.session.completed and customer.subscription.created on payment,
 * customer.subscription.updated on each update, customer.subscription.deleted when one ends
 * (DELETE, `control.cancelSubscription`, or its cancel_at passed on the sandbox clock at
 * `control.settle()`). Each is sent once, in the background; `control.redeliver(id)` sends one
 * again as Stripe's retries do, and `control.deliveriesSettled()` waits for every answer.
 */
import { createHmac } from 'node:crypto';
import { createSandboxClock, findRoute, randomToken, startSandboxServer, stateFile, type SandboxClock, type SandboxOptions, type SandboxRequest, type SandboxResponse, type SandboxServer, type SandboxRoute } from '../sandbox-kit';
import { decodeForm, textAt, textsAt, type FormObject } from './form';

/** The sandbox's fixed credentials and prices: the local stack and the tests configure the adapter with these. */
export const STRIPE_SANDBOX = {
  secretKey: 'sk_test_sandbox',
  webhookSecret: 'whsec_sandbox',
  prices: { starter: 'price_sandbox_starter', pro: 'price_sandbox_pro', business: 'price_sandbox_business' },
} as const;

export interface StripeSandboxOptions extends SandboxOptions {
  secretKey?: string;
  webhookSecret?: string;
  /** The price ids it knows (default STRIPE_SANDBOX.prices'). */
  prices?: readonly string[];
  webhookUrl?: string;
}

interface Session {
  id: string;
  object: 'checkout.session';
  mode: 'subscription';
  status: 'open' | 'complete';
  payment_status: 'unpaid' | 'paid';
  url: string;
  customer: string | null;
  subscription: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  created: number;
  /** Not part of Stripe's answer: what the subscription is made of on payment. */
  _price: string;
  _subscription_metadata: Record<string, string>;
  _billing_cycle_anchor: number | null;
}

interface Subscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'active' | 'canceled';
  metadata: Record<string, string>;
  cancel_at: number | null;
  canceled_at: number | null;
  billing_cycle_anchor: number;
  created: number;
  items: { object: 'list'; data: { id: string; object: 'subscription_item'; price: { id: string; object: 'price' }; quantity: number }[] };
}

interface SentEvent {
  id: string;
  type: string;
  payload: string;
  /** The HTTP status of each delivery so far (0: no answer). */
  deliveries: number[];
}

interface StripeState {
  sessions: Record<string, Session>;
  subscriptions: Record<string, Subscription>;
  customers: string[];
  events: SentEvent[];
}

export interface StripeSandboxControl {
  setWebhookUrl(url: string | null): void;
  /** Pays an open checkout session: a customer and an active subscription; events sent. */
  completeCheckout(sessionId: string): { subscriptionId: string };
  /** Ends a subscription now, as from Stripe's Dashboard. */
  cancelSubscription(subscriptionId: string): void;
  /** Subscriptions whose cancel_at has passed on the sandbox clock end. */
  settle(): void;
  /** The next invoiced price change is declined (402 card_declined). */
  declineNextCharge(): void;
  session(id: string): Omit<Session, '_price' | '_subscription_metadata' | '_billing_cycle_anchor'> | undefined;
  subscription(id: string): Subscription | undefined;
  /** Every event sent, oldest first, with the status of each delivery. */
  events(): { id: string; type: string; deliveries: number[] }[];
  /** Sends an event again, signed anew; answers the endpoint's status. */
  redeliver(eventId: string): Promise<number>;
  /** Resolves when every delivery under way has been answered. */
  deliveriesSettled(): Promise<void>;
  clock: SandboxClock;
  faults: SandboxServer['faults'];
  counters: SandboxServer['counters'];
}

export interface StripeSandbox {
  /** Where the SDK is pointed (`host`, `port`, `protocol: 'http'` from it). */
  url: string;
  control: StripeSandboxControl;
  stop(): Promise<void>;
}

const ROUTES: readonly SandboxRoute[] = [
  ['POST', /^\/v1\/checkout\/sessions$/, 'POST /v1/checkout/sessions'],
  ['GET', /^\/v1\/checkout\/sessions\/[^/]+$/, 'GET /v1/checkout/sessions/:id'],
  ['GET', /^\/v1\/subscriptions\/[^/]+$/, 'GET /v1/subscriptions/:id'],
  ['POST', /^\/v1\/subscriptions\/[^/]+$/, 'POST /v1/subscriptions/:id'],
  ['DELETE', /^\/v1\/subscriptions\/[^/]+$/, 'DELETE /v1/subscriptions/:id'],
  ['GET', /^\/c\/pay\/[^/]+$/, 'GET /c/pay/:id'],
  ['POST', /^\/c\/pay\/[^/]+$/, 'POST /c/pay/:id'],
];

const stripeError = (status: number, type: string, message: string, extra: { code?: string; param?: string } = {}): SandboxResponse => ({
  status,
  body: { error: { type, message, ...extra } },
});
const missing = (what: string, id: string) => stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing' });
const invalid = (message: string, param?: string) => stripeError(400, 'invalid_request_error', message, param ? { param } : {});

/** Stripe's webhook signature: HMAC-SHA256 of `<t>.<payload>` under the endpoint's secret, in hex. */
export function stripeSignature(payload: string, secret: string, timestampS: number): string {
  return `t=${timestampS},v1=${createHmac('sha256', secret).update(`${timestampS}.${payload}`).digest('hex')}`;
}

const publicSession = ({ _price, _subscription_metadata, _billing_cycle_anchor, ...session }: Session) => session;

export async function startStripeSandbox(options: StripeSandboxOptions = {}): Promise<StripeSandbox> {
  const secretKey = options.secretKey ?? STRIPE_SANDBOX.secretKey;
  const webhookSecret = options.webhookSecret ?? STRIPE_SANDBOX.webhookSecret;
  const prices = new Set(options.prices ?? Object.values(STRIPE_SANDBOX.prices));
  const clock = createSandboxClock(options.timeScale);
  const file = options.stateFile ? stateFile<StripeState>(options.stateFile) : undefined;
  const state: StripeState = file?.load() ?? { sessions: {}, subscriptions: {}, customers: [], events: [] };
  let webhookUrl = options.webhookUrl ?? null;
  let declineNext = false;
  const inFlight = new Set<Promise<unknown>>();
  const nowS = () => Math.floor(clock.now() / 1000);
  const persist = () => file?.save(state);
  let origin = '';

  async function deliver(event: SentEvent): Promise<number> {
    if (!webhookUrl) return 0;
    let status = 0;
    try {
      const answer = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(event.payload, webhookSecret, nowS()) },
        body: event.payload,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.text();
      status = answer.status;
    } catch (error) {
      options.log?.(`stripe sandbox: delivering ${event.id} failed: ${String(error)}`);
    }
    event.deliveries.push(status);
    persist();
    return status;
  }

  function emit(type: string, object: unknown): void {
    const id = `evt_${randomToken(24)}`;
    const payload = JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: nowS(), livemode: false, pending_webhooks: 1, type, data: { object } }, null, 2);
    const event: SentEvent = { id, type, payload, deliveries: [] };
    state.events.push(event);
    // In the background, as Stripe sends them: after the request that caused them is answered.
    const sending = new Promise((resolve) => setImmediate(resolve)).then(() => deliver(event));
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  }

  function endSubscription(subscription: Subscription): void {
    if (subscription.status === 'canceled') return;
    subscription.status = 'canceled';
    subscription.canceled_at = nowS();
    emit('customer.subscription.deleted', subscription);
  }

  function completeCheckout(sessionId: string): { subscriptionId: string } {
    const session = state.sessions[sessionId];
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
    const customer = session.customer ?? `cus_${randomToken(14)}`;
    if (!state.customers.includes(customer)) state.customers.push(customer);
    const subscription: Subscription = {
      id: `sub_${randomToken(24)}`,
      object: 'subscription',
      customer,
      status: 'active',
      metadata: { ...session._subscription_metadata },
      cancel_at: null,
      canceled_at: null,
      billing_cycle_anchor: session._billing_cycle_anchor ?? nowS(),
      created: nowS(),
      items: { object: 'list', data: [{ id: `si_${randomToken(14)}`, object: 'subscription_item', price: { id: session._price, object: 'price' }, quantity: 1 }] },
    };
    state.subscriptions[subscription.id] = subscription;
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscription.id });
    emit('customer.subscription.created', subscription);
    emit('checkout.session.completed', publicSession(session));
    persist();
    return { subscriptionId: subscription.id };
  }

  function createSession(form: FormObject): SandboxResponse {
    if (textAt(form, 'mode') !== 'subscription') return invalid('The sandbox makes subscription-mode sessions only', 'mode');
    const price = textAt(form, 'line_items', '0', 'price');
    if (!price || !prices.has(price)) return missing('price', price ?? '');
    const successUrl = textAt(form, 'success_url');
    const cancelUrl = textAt(form, 'cancel_url');
    if (!successUrl) return invalid('Missing required param: success_url.', 'success_url');
    if (!cancelUrl) return invalid('Missing required param: cancel_url.', 'cancel_url');
    const customer = textAt(form, 'customer') ?? null;
    if (customer !== null && !state.customers.includes(customer)) return missing('customer', customer);
    const anchor = textAt(form, 'subscription_data', 'billing_cycle_anchor');
    if (anchor !== undefined && !(Number(anchor) > nowS())) return invalid('billing_cycle_anchor must be in the future', 'subscription_data[billing_cycle_anchor]');
    const id = `cs_test_${randomToken(32)}`;
    const session: Session = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${origin}/c/pay/${id}`,
      customer,
      subscription: null,
      client_reference_id: textAt(form, 'client_reference_id') ?? null,
      metadata: textsAt(form, 'metadata'),
      success_url: successUrl,
      cancel_url: cancelUrl,
      created: nowS(),
      _price: price,
      _subscription_metadata: textsAt(form, 'subscription_data', 'metadata'),
      _billing_cycle_anchor: anchor === undefined ? null : Number(anchor),
    };
    state.sessions[id] = session;
    return { status: 200, body: publicSession(session) };
  }

  function updateSubscription(subscription: Subscription, form: FormObject): SandboxResponse {
    if (subscription.status === 'canceled') return invalid(`A canceled subscription can only update its cancellation_details and metadata.`);
    const price = textAt(form, 'items', '0', 'price');
    const itemId = textAt(form, 'items', '0', 'id');
    if (price !== undefined) {
      if (!prices.has(price)) return missing('price', price);
      if (itemId !== subscription.items.data[0]!.id) return invalid(`No such subscription item: '${itemId ?? ''}'`, 'items[0][id]');
      if (textAt(form, 'proration_behavior') === 'always_invoice' && declineNext) {
        declineNext = false;
        return stripeError(402, 'card_error', 'Your card was declined.', { code: 'card_declined' });
      }
      subscription.items.data[0]!.price = { id: price, object: 'price' };
    }
    const cancelAt = textAt(form, 'cancel_at');
    if (cancelAt !== undefined) subscription.cancel_at = cancelAt === '' ? null : Number(cancelAt);
    for (const [key, value] of Object.entries(textsAt(form, 'metadata'))) {
      if (value === '') delete subscription.metadata[key];
      else subscription.metadata[key] = value;
    }
    emit('customer.subscription.updated', subscription);
    return { status: 200, body: subscription };
  }

  function payPage(session: Session): SandboxResponse {
    const price = session._price.replace(/[^A-Za-z0-9_]/g, '');
    return {
      status: 200,
      body: null,
      html: `<!doctype html><title>Stripe sandbox checkout</title><h1>Stripe sandbox</h1><p>Subscribe to ${price}. No card, no charge: this is the local stack's sandbox.</p><form method="post"><button>Pay</button></form><p><a href="${encodeURI(session.cancel_url)}">Cancel</a></p>`,
    };
  }

  function handle(req: SandboxRequest): SandboxResponse {
    const route = findRoute(ROUTES, req.method, req.path);
    const id = decodeURIComponent(req.path.split('/').at(-1) ?? '');
    if (route?.startsWith('GET /c/pay') || route?.startsWith('POST /c/pay')) {
      const session = state.sessions[id];
      if (!session) return missing('checkout.session', id);
      if (route.startsWith('GET') || session.status !== 'open') return session.status === 'open' ? payPage(session) : { status: 303, body: null, headers: { location: session.success_url } };
      completeCheckout(id);
      return { status: 303, body: null, headers: { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) } };
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return stripeError(401, 'invalid_request_error', 'Invalid API Key provided: the sandbox takes its own secret key only');
    }
    const form = decodeForm(req.text);
    if ('invalid' in form) return invalid(`Received unknown parameter: ${form.invalid}`);
    switch (route) {
      case 'POST /v1/checkout/sessions':
        return createSession(form);
      case 'GET /v1/checkout/sessions/:id': {
        const session = state.sessions[id];
        return session ? { status: 200, body: publicSession(session) } : missing('checkout.session', id);
      }
      case 'GET /v1/subscriptions/:id':
      case 'POST /v1/subscriptions/:id':
      case 'DELETE /v1/subscriptions/:id': {
        const subscription = state.subscriptions[id];
        if (!subscription) return missing('subscription', id);
        if (req.method === 'GET') return { status: 200, body: subscription };
        if (req.method === 'POST') return updateSubscription(subscription, form);
        endSubscription(subscription);
        return { status: 200, body: subscription };
      }
      default:
        return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path}).`);
    }
  }

  const server = await startSandboxServer({
    port: options.port,
    clock,
    flavour: {
      routeOf: (method, path) => findRoute(ROUTES, method, path),
      unavailable: () => ({ error: { type: 'api_error', message: 'The sandbox is down on purpose (faults.outage).' } }),
      rateLimited: () => ({ error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests.' } }),
      internalError: () => ({ error: { type: 'api_error', message: 'The sandbox failed.' } }),
      wrongShape: () => ({ object: 'unexpected' }),
    },
    handle,
    afterRequest: persist,
    onError: (error) => options.log?.(`stripe sandbox: ${String(error)}`),
  });
  origin = server.origin;

  const control: StripeSandboxControl = {
    setWebhookUrl: (url) => void (webhookUrl = url),
    completeCheckout,
    cancelSubscription(subscriptionId) {
      const subscription = state.subscriptions[subscriptionId];
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      endSubscription(subscription);
      persist();
    },
    settle() {
      for (const subscription of Object.values(state.subscriptions)) {
        if (subscription.cancel_at !== null && subscription.cancel_at <= nowS()) endSubscription(subscription);
      }
      persist();
    },
    declineNextCharge: () => void (declineNext = true),
    session: (id) => (state.sessions[id] ? publicSession(state.sessions[id]) : undefined),
    subscription: (id) => state.subscriptions[id] && structuredClone(state.subscriptions[id]),
    events: () => state.events.map(({ id, type, deliveries }) => ({ id, type, deliveries: [...deliveries] })),
    async redeliver(eventId) {
      const event = state.events.find((e) => e.id === eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      return deliver(event);
    },
    async deliveriesSettled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    clock,
    faults: server.faults,
    counters: server.counters,
  };
  return {
    url: server.origin,
    control,
    async stop() {
      await control.deliveriesSettled();
      await server.stop();
    },
  };
}
