/**
 * Billing without a payment provider. `localBilling` (the local stack's default): every change
 * applies at once, by the plan rules, and nothing is charged. `billingNotConfigured` (AWS until a
 * Stripe key is configured): a paid plan cannot be taken, since nobody would be charged for it; a move
 * to the free plan still applies.
 */
import { isPaidPlan } from '#domain/plans';
import { BillingError, type Billing } from '#ports/billing';

const noWebhook = (why: string) => async (): Promise<never> => {
  throw new BillingError('not_served', `No payment provider sends webhooks here: ${why}`);
};

export const localBilling: Billing = {
  kind: 'local',
  prepareChange: async () => ({ kind: 'apply' }),
  readEvent: noWebhook('plan changes on this stack take effect without payment'),
};

export const billingNotConfigured: Billing = {
  kind: 'not_configured',
  async prepareChange(request) {
    if (!isPaidPlan(request.to)) return { kind: 'apply' };
    throw new BillingError(
      'not_configured',
      `This deployment takes no payments (no Stripe key is configured), so the account cannot move to the paid plan ${request.to}; the operator configures Stripe (docs/billing.md)`,
    );
  },
  readEvent: noWebhook('this deployment has no Stripe key configured'),
};
