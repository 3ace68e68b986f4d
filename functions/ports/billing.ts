/**
 * Billing: what the payment provider has to do with a plan change, and the provider's own reports
 * (webhooks) of payments and subscriptions. The plan rules (upgrade now, downgrade at the next
 * period) are the domain's; the adapter only talks to the provider (docs/billing.md).
 */
import type { PlanChangeOutcome } from '#domain/plan-change';
import type { PlanName } from '#domain/plans';
import type { SubscriptionLink } from './account-store';

/**
 * `local`: changes take effect without payment (the local stack); `stripe`: paid plans go through
 * Stripe Checkout and Stripe's webhooks; `not_configured`: no provider, so no paid plan can be taken
 * (AWS until a Stripe key is configured).
 */
export type BillingKind = 'local' | 'stripe' | 'not_configured';

export interface PlanChangeRequest {
  accountId: number;
  /** The plan in force now. */
  from: PlanName;
  to: PlanName;
  /** What the plan rules make of the change (never `unchanged`: that asks nothing of the provider). */
  outcome: Exclude<PlanChangeOutcome, 'unchanged'>;
  /** The next billing period's start, when a downgrade takes effect. */
  periodEnd: Date;
  subscription: SubscriptionLink | null;
  /** The studio page a checkout returns to. */
  returnUrl: string;
}

/**
 * `apply`: the account changes now, by the plan rules (the provider needed nothing, or has been told).
 * `checkout`: nothing changes until the provider reports the payment; the owner pays at `url`.
 */
export type BillingStep = { kind: 'apply' } | { kind: 'checkout'; url: string };

/**
 * A provider's report, read and verified; `id` is the provider's event id (applied once).
 * `subscribed`: a checkout was paid; `subscription_changed`: the subscription is live on `plan`;
 * `subscription_ended`: it was cancelled or lapsed. Each names the subscription as it stands now.
 */
export type BillingEvent =
  | { id: string; kind: 'subscribed' | 'subscription_changed'; accountId: number; plan: PlanName; subscription: SubscriptionLink }
  | { id: string; kind: 'subscription_ended'; accountId: number; subscription: SubscriptionLink }
  | { id: string; kind: 'ignored'; type: string };

/**
 * Why the provider side failed: `signature` (a webhook that is not the provider's: 400),
 * `payment_failed` (a declined charge: 402), `not_configured` (no provider for a paid plan: 409),
 * `not_served` (this deployment has no such webhook: 404), `unavailable` (the provider is down: 503).
 */
export class BillingError extends Error {
  constructor(
    readonly kind: 'signature' | 'payment_failed' | 'not_configured' | 'not_served' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BillingError';
  }
}

export interface Billing {
  readonly kind: BillingKind;
  /** Tells the provider about a change, or answers where the owner pays for it. */
  prepareChange(request: PlanChangeRequest): Promise<BillingStep>;
  /** A webhook delivery, verified against its signature header and read; a BillingError otherwise. */
  readEvent(body: Buffer, signature: string | undefined): Promise<BillingEvent>;
}
