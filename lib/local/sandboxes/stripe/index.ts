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
import { createSandboxClock, findRoute, startSandboxServer, stateFile, type SandboxClock, type SandboxOptions, type SandboxRequest, type SandboxResponse, type SandboxServer, type SandboxRoute } from '../sandbox-kit';
import { decodeForm } from './form';
import { invalid, missing, payPage, publicSession, StripeWorld, unauthorised, unknownUrl, type Session, type StripeState, type Subscription } from './world';

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

interface StripeSandboxControl {
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

/** A request to the sandbox, answered as Stripe would (the checkout pages need no key, as Stripe's do not). */
function handle(world: StripeWorld, secretKey: string, req: SandboxRequest): SandboxResponse {
  const route = findRoute(ROUTES, req.method, req.path);
  const id = decodeURIComponent(req.path.split('/').at(-1) ?? '');
  const { sessions, subscriptions } = world.state;
  if (route === 'GET /c/pay/:id' || route === 'POST /c/pay/:id') {
    const session = sessions[id];
    if (!session) return missing('checkout.session', id);
    if (session.status !== 'open') return { status: 303, body: null, headers: { location: session.success_url } };
    if (route === 'GET /c/pay/:id') return payPage(session);
    world.completeCheckout(id);
    return { status: 303, body: null, headers: { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) } };
  }
  if (req.headers.authorization !== `Bearer ${secretKey}`) return unauthorised();
  const form = decodeForm(req.text);
  if ('invalid' in form) return invalid(`Received unknown parameter: ${form.invalid}`);
  if (route === 'POST /v1/checkout/sessions') return world.createSession(form);
  if (route === 'GET /v1/checkout/sessions/:id') return sessions[id] ? { status: 200, body: publicSession(sessions[id]) } : missing('checkout.session', id);
  if (!route?.includes('/v1/subscriptions/')) return unknownUrl(req.method, req.path);
  const subscription = subscriptions[id];
  if (!subscription) return missing('subscription', id);
  if (req.method === 'POST') return world.updateSubscription(subscription, form);
  if (req.method === 'DELETE') world.endSubscription(subscription);
  return { status: 200, body: subscription };
}

export async function startStripeSandbox(options: StripeSandboxOptions = {}): Promise<StripeSandbox> {
  const clock = createSandboxClock(options.timeScale);
  const file = options.stateFile ? stateFile<StripeState>(options.stateFile) : undefined;
  const state: StripeState = file?.load() ?? { sessions: {}, subscriptions: {}, customers: [], events: [] };
  const persist = () => file?.save(state);
  const world = new StripeWorld({
    state,
    clock,
    webhookSecret: options.webhookSecret ?? STRIPE_SANDBOX.webhookSecret,
    prices: new Set(options.prices ?? Object.values(STRIPE_SANDBOX.prices)),
    webhookUrl: options.webhookUrl ?? null,
    persist,
    log: options.log,
  });
  const secretKey = options.secretKey ?? STRIPE_SANDBOX.secretKey;
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
    handle: (req) => handle(world, secretKey, req),
    afterRequest: persist,
    onError: (error) => options.log?.(`stripe sandbox: ${String(error)}`),
  });
  world.origin = server.origin;

  const control: StripeSandboxControl = {
    setWebhookUrl: (url) => void (world.webhookUrl = url),
    completeCheckout: (sessionId) => world.completeCheckout(sessionId),
    cancelSubscription(subscriptionId) {
      const subscription = state.subscriptions[subscriptionId];
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      world.endSubscription(subscription);
      persist();
    },
    settle() {
      world.settle();
      persist();
    },
    declineNextCharge: () => void (world.declineNext = true),
    session: (id) => (state.sessions[id] ? publicSession(state.sessions[id]) : undefined),
    subscription: (id) => state.subscriptions[id] && structuredClone(state.subscriptions[id]),
    events: () => state.events.map(({ id, type, deliveries }) => ({ id, type, deliveries: [...deliveries] })),
    async redeliver(eventId) {
      const event = state.events.find((e) => e.id === eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      return world.deliver(event);
    },
    deliveriesSettled: () => world.deliveriesSettled(),
    clock,
    faults: server.faults,
    counters: server.counters,
  };
  return {
    url: server.origin,
    control,
    async stop() {
      await world.deliveriesSettled();
      await server.stop();
    },
  };
}
