/**
 * The Stripe sandbox's state and what changes it: checkout sessions, customers, subscriptions, and the
 * events each change sends to the webhook URL, signed as Stripe signs them. The HTTP side is ./index.ts.
 */
import { createHmac } from 'node:crypto';
import { randomToken, type SandboxClock, type SandboxResponse } from '../sandbox-kit';
import { textAt, textsAt, type FormObject } from './form';

const { floor } = Math;

export interface Session {
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

export interface Subscription {
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

export interface StripeState {
  sessions: Record<string, Session>;
  subscriptions: Record<string, Subscription>;
  customers: string[];
  events: SentEvent[];
}

const stripeError = (status: number, type: string, message: string, extra: { code?: string; param?: string } = {}): SandboxResponse => ({
  status,
  body: { error: { type, message, ...extra } },
});
export const missing = (what: string, id: string) => stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing' });
export const invalid = (message: string, param?: string) => stripeError(400, 'invalid_request_error', message, param ? { param } : {});
export const unauthorised = () => stripeError(401, 'invalid_request_error', 'Invalid API Key provided: the sandbox takes its own secret key only');
export const unknownUrl = (method: string, path: string) => stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);

/** Stripe's webhook signature: HMAC-SHA256 of `<t>.<payload>` under the endpoint's secret, in hex. */
function stripeSignature(payload: string, secret: string, timestampS: number): string {
  return `t=${timestampS},v1=${createHmac('sha256', secret).update(`${timestampS}.${payload}`).digest('hex')}`;
}

export const publicSession = ({ _price, _subscription_metadata, _billing_cycle_anchor, ...session }: Session) => session;

export interface WorldOptions {
  state: StripeState;
  clock: SandboxClock;
  webhookSecret: string;
  prices: ReadonlySet<string>;
  webhookUrl: string | null;
  persist(): void;
  log?: (line: string) => void;
}

export class StripeWorld {
  readonly state: StripeState;
  webhookUrl: string | null;
  declineNext = false;
  /** The sandbox's address, for the checkout pages' URLs (set once it listens). */
  origin = '';
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: WorldOptions) {
    this.state = options.state;
    this.webhookUrl = options.webhookUrl;
  }

  private nowS(): number {
    return floor(this.options.clock.now() / 1000);
  }

  async deliver(event: SentEvent): Promise<number> {
    if (!this.webhookUrl) return 0;
    let status = 0;
    try {
      const answer = await fetch(this.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(event.payload, this.options.webhookSecret, this.nowS()) },
        body: event.payload,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.text();
      status = answer.status;
    } catch (error) {
      this.options.log?.(`stripe sandbox: delivering ${event.id} failed: ${String(error)}`);
    }
    event.deliveries.push(status);
    this.options.persist();
    return status;
  }

  /** Resolves when every delivery under way has been answered. */
  async deliveriesSettled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private emit(type: string, object: unknown): void {
    const id = `evt_${randomToken(24)}`;
    const payload = JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: this.nowS(), livemode: false, pending_webhooks: 1, type, data: { object } }, null, 2);
    const event: SentEvent = { id, type, payload, deliveries: [] };
    this.state.events.push(event);
    // In the background, as Stripe sends them: after the request that caused them is answered.
    const sending = new Promise((resolve) => setImmediate(resolve)).then(() => this.deliver(event));
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  endSubscription(subscription: Subscription): void {
    if (subscription.status === 'canceled') return;
    subscription.status = 'canceled';
    subscription.canceled_at = this.nowS();
    this.emit('customer.subscription.deleted', subscription);
  }

  /** Subscriptions whose cancel_at has passed on the sandbox clock end. */
  settle(): void {
    for (const subscription of Object.values(this.state.subscriptions)) {
      if (subscription.cancel_at !== null && subscription.cancel_at <= this.nowS()) this.endSubscription(subscription);
    }
  }

  completeCheckout(sessionId: string): { subscriptionId: string } {
    const session = this.state.sessions[sessionId];
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
    const customer = session.customer ?? `cus_${randomToken(14)}`;
    if (!this.state.customers.includes(customer)) this.state.customers.push(customer);
    const subscription = subscriptionOf(session, customer, this.nowS());
    this.state.subscriptions[subscription.id] = subscription;
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscription.id });
    this.emit('customer.subscription.created', subscription);
    this.emit('checkout.session.completed', publicSession(session));
    this.options.persist();
    return { subscriptionId: subscription.id };
  }

  createSession(form: FormObject): SandboxResponse {
    if (textAt(form, 'mode') !== 'subscription') return invalid('The sandbox makes subscription-mode sessions only', 'mode');
    const price = textAt(form, 'line_items', '0', 'price');
    if (!price || !this.options.prices.has(price)) return missing('price', price ?? '');
    const successUrl = textAt(form, 'success_url');
    const cancelUrl = textAt(form, 'cancel_url');
    if (!successUrl) return invalid('Missing required param: success_url.', 'success_url');
    if (!cancelUrl) return invalid('Missing required param: cancel_url.', 'cancel_url');
    const customer = textAt(form, 'customer') ?? null;
    if (customer !== null && !this.state.customers.includes(customer)) return missing('customer', customer);
    const anchor = textAt(form, 'subscription_data', 'billing_cycle_anchor');
    if (anchor !== undefined && !(Number(anchor) > this.nowS())) return invalid('billing_cycle_anchor must be in the future', 'subscription_data[billing_cycle_anchor]');
    const id = `cs_test_${randomToken(32)}`;
    const session: Session = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.origin}/c/pay/${id}`,
      customer,
      subscription: null,
      client_reference_id: textAt(form, 'client_reference_id') ?? null,
      metadata: textsAt(form, 'metadata'),
      success_url: successUrl,
      cancel_url: cancelUrl,
      created: this.nowS(),
      _price: price,
      _subscription_metadata: textsAt(form, 'subscription_data', 'metadata'),
      _billing_cycle_anchor: anchor === undefined ? null : Number(anchor),
    };
    this.state.sessions[id] = session;
    return { status: 200, body: publicSession(session) };
  }

  updateSubscription(subscription: Subscription, form: FormObject): SandboxResponse {
    if (subscription.status === 'canceled') return invalid('A canceled subscription can only update its cancellation_details and metadata.');
    const price = textAt(form, 'items', '0', 'price');
    const itemId = textAt(form, 'items', '0', 'id');
    if (price !== undefined) {
      if (!this.options.prices.has(price)) return missing('price', price);
      if (itemId !== subscription.items.data[0]!.id) return invalid(`No such subscription item: '${itemId ?? ''}'`, 'items[0][id]');
      if (textAt(form, 'proration_behavior') === 'always_invoice' && this.declineNext) {
        this.declineNext = false;
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
    this.emit('customer.subscription.updated', subscription);
    return { status: 200, body: subscription };
  }
}

/** The hosted checkout page: a Pay button that posts back to it. */
export function payPage(session: Session): SandboxResponse {
  const price = session._price.replace(/[^A-Za-z0-9_]/g, '');
  return {
    status: 200,
    body: null,
    html: `<!doctype html><title>Stripe sandbox checkout</title><h1>Stripe sandbox</h1><p>Subscribe to ${price}. No card, no charge: this is the local stack's sandbox.</p><form method="post"><button>Pay</button></form><p><a href="${encodeURI(session.cancel_url)}">Cancel</a></p>`,
  };
}

/** The subscription a paid session makes, for `customer`. */
function subscriptionOf(session: Session, customer: string, nowS: number): Subscription {
  return {
    id: `sub_${randomToken(24)}`,
    object: 'subscription',
    customer,
    status: 'active',
    metadata: { ...session._subscription_metadata },
    cancel_at: null,
    canceled_at: null,
    billing_cycle_anchor: session._billing_cycle_anchor ?? nowS,
    created: nowS,
    items: { object: 'list', data: [{ id: `si_${randomToken(14)}`, object: 'subscription_item', price: { id: session._price, object: 'price' }, quantity: 1 }] },
  };
}
