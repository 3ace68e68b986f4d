/**
 * Plans and billing: the public plan table, the owner's plan change (the studio's session only: a
 * key could otherwise spend the owner's money), and the payment provider's webhook.
 */
import type { Operation, PublicOperation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { rawRouteBody, readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { accepted, ok } from '#http/respond';
import { studioOrigin } from '#http/session-cookie';
import { PLAN_NAMES, planView } from '#domain/plans';
import { changePlanInput } from '#domain/schemas/plans';
import { changePlan } from '#use-cases/change-plan';
import { receiveBillingEvent } from '#use-cases/apply-billing-event';

/** The studio page a checkout comes back to. */
const PLANS_PAGE = '/plans';

const plans: PublicOperation<Pick<Ports, 'billing'>> = async (request) => ok({ billing: request.deps.billing.kind, plans: PLAN_NAMES.map(planView) });

const changePlanOperation: Operation<NeedsOf<typeof changePlan>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(changePlanInput, body.fields, 'plan change');
  const result = await changePlan(request.deps, { accountId: request.principal.accountId, to: input.plan, returnUrl: `${studioOrigin(request.event)}${PLANS_PAGE}` });
  const answer = { account: result.account, change: result.change, checkout_url: result.checkoutUrl };
  // Nothing has changed yet: it will once the payment is confirmed.
  return result.change === 'checkout' ? accepted(answer) : ok(answer);
};

const stripeWebhook: PublicOperation<NeedsOf<typeof receiveBillingEvent>> = async (request) => {
  const result = await receiveBillingEvent(request.deps, rawRouteBody(request), request.event.headers?.['stripe-signature']);
  return ok({ received: true, result: result.status });
};

export const billingOperations = {
  plans: { public: plans },
  changePlan: changePlanOperation,
  stripeWebhook: { public: stripeWebhook },
};
