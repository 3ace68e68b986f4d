/** Plans and plan changes as zod schemas: GET /plans, PUT /account/plan, the Stripe webhook's body. */
import * as z from 'zod/mini';
import { PLAN_CURRENCY, PLAN_NAMES, type PlanName } from '#domain/plans';
import { accountResponse } from './accounts';
import { meaning } from './envelope';

const count = z.int().check(z.nonnegative());

const planName = z.enum(PLAN_NAMES as [PlanName, ...PlanName[]], { error: `must be one of ${PLAN_NAMES.join(', ')}` });

const planResponse = z
  .object({
    name: meaning(planName, "The plan's name"),
    price: z
      .object({
        amount: count.check(z.meta({ description: "The monthly price in the currency's smallest unit (cents); 0 for the free plan" })),
        currency: meaning(z.literal(PLAN_CURRENCY), 'The currency (US dollars)'),
        interval: meaning(z.literal('month'), 'Charged monthly'),
      })
      .check(z.meta({ description: 'What the plan costs a month' })),
    monthly_allowance: count.check(z.meta({ description: 'Finished videos a billing period (a calendar month, UTC): one unit per video, and one per regeneration' })),
    library_cap: count.check(z.meta({ description: 'Saved reactions the library keeps (402 library_full past it)' })),
    avatar_cap: count.check(z.meta({ description: 'Avatars the account keeps (402 avatars_full past it)' })),
    ai_helpers_per_day: count.check(z.meta({ description: 'Hook-idea and prompt-avatar requests a rolling day (429 past it)' })),
    ai_helpers_per_minute: count.check(z.meta({ description: 'Hook-idea and prompt-avatar requests a rolling minute (429 past it)' })),
    video_retention_days: count.check(
      z.meta({
        description:
          "Days a finished video's file is kept after it is made (then GET /videos/{id} answers 410 video_expired); a video keeps the retention of the plan it was made under",
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'Plan', description: "A plan: its price and the limits it sets" });

export const plansResponse = z
  .object({
    billing: z.enum(['local', 'stripe', 'not_configured']).check(
      z.meta({
        description:
          'How paid plans are taken here: `local` (at once, nothing charged: the local stack), `stripe` (PUT /account/plan to a paid plan answers a Stripe Checkout link first), `not_configured` (no payment provider: only the free plan can be chosen; a paid one is 409 billing_not_configured)',
      }),
    ),
    plans: z.array(planResponse).check(z.meta({ description: 'Every plan, from the smallest to the largest' })),
  })
  .register(z.globalRegistry, { id: 'Plans', description: 'The plans on offer, and how this deployment takes paid ones' });

export const changePlanInput = z.strictObject({
  plan: planName.check(z.meta({ description: 'The plan to change to (GET /plans lists them)' })),
});

export const planChangeResponse = z
  .object({
    account: meaning(accountResponse, 'The account after the change'),
    change: z.enum(['upgraded', 'downgrade_scheduled', 'downgrade_cancelled', 'unchanged', 'checkout']).check(
      z.meta({
        description:
          '`upgraded`: the larger plan holds now. `downgrade_scheduled`: the smaller plan takes over at `account.plan_changes_at` (the next billing period). `downgrade_cancelled`: the plan in force was asked for again, so the waiting downgrade is dropped. `unchanged`: it already was so. `checkout`: pay at `checkout_url` first; the account changes when the payment is confirmed',
      }),
    ),
    checkout_url: z.nullable(z.url()).check(z.meta({ description: 'Stripe Checkout, where the owner pays for a paid plan; null unless `change` is `checkout`' })),
  })
  .register(z.globalRegistry, { id: 'PlanChange', description: 'What a plan change did, or what it waits for' });

/** What the service reads of a Stripe event's JSON (the whole body is what its signature covers). */
export const stripeEventInput = z
  .object({
    id: z.string().check(z.meta({ description: 'The event id (`evt_…`): each is applied once, however often Stripe delivers it' })),
    type: z.string().check(z.meta({ description: 'checkout.session.completed, customer.subscription.updated and customer.subscription.deleted change plans; the rest are acknowledged and ignored' })),
    data: meaning(z.object({ object: meaning(z.object({ id: meaning(z.string(), "The object's id") }), 'The object the event is about') }), "The event's payload"),
  })
  .register(z.globalRegistry, { id: 'StripeEvent', description: 'A Stripe event, as Stripe sends it (only what the service reads is listed)' });

export const stripeWebhookResponse = z
  .object({
    received: meaning(z.literal(true), 'Always true: Stripe need not send it again'),
    result: z.enum(['applied', 'duplicate', 'ignored']).check(z.meta({ description: '`duplicate`: this event id was applied before, and nothing changed now' })),
  })
  .register(z.globalRegistry, { id: 'StripeWebhookReceipt', description: 'What the service did with a Stripe event' });
