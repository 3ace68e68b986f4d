/** Plans: the only place their numbers live (GET /plans serves them; docs/decisions.md lists them). */

/**
 * `avatarCap` bounds GET /avatars, which lists the whole set (no pagination in the contract): like
 * the library cap, a counter moved in the create's transaction admits each new avatar.
 * `priceCents` is the monthly price in US cents, as payment providers count money (integers, no
 * rounding); a paid plan's Stripe price is configured per deployment and must charge the same.
 * `videoRetentionDays`: how long a finished video's file (and its poster) is kept after it is made, by
 * the plan in force when it was made (domain/video-retention.ts; each distinct value is a lifecycle
 * rule of the media bucket). The contract names no retention: these are our numbers.
 * The plans are listed from the smallest to the largest: that order decides what is an upgrade.
 */
const PLANS = {
  free: { priceCents: 0, monthlyVideos: 3, libraryCap: 3, avatarCap: 10, aiHelpersPerDay: 20, aiHelpersPerMinute: 5, videoRetentionDays: 30 },
  starter: { priceCents: 1900, monthlyVideos: 30, libraryCap: 10, avatarCap: 25, aiHelpersPerDay: 100, aiHelpersPerMinute: 10, videoRetentionDays: 90 },
  pro: { priceCents: 4900, monthlyVideos: 150, libraryCap: 50, avatarCap: 100, aiHelpersPerDay: 500, aiHelpersPerMinute: 20, videoRetentionDays: 365 },
  business: { priceCents: 14900, monthlyVideos: 600, libraryCap: 200, avatarCap: 250, aiHelpersPerDay: 2000, aiHelpersPerMinute: 40, videoRetentionDays: 730 },
} as const;

export type PlanName = keyof typeof PLANS;
export type Plan = (typeof PLANS)[PlanName];

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** The currency of every price. */
export const PLAN_CURRENCY = 'usd' as const;

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}

export function planOf(name: PlanName): Plan {
  return PLANS[name];
}

/** Whether a plan costs money, so changing to it goes through the payment provider. */
export const isPaidPlan = (name: PlanName) => PLANS[name].priceCents > 0;

/** Whether `to` is a larger plan than `from` (a later one in the table). */
export const isUpgrade = (from: PlanName, to: PlanName) => PLAN_NAMES.indexOf(to) > PLAN_NAMES.indexOf(from);

/**
 * What every refusal for a plan's limit (the allowance, a cap, the AI-helper budget) ends with: where
 * a larger plan is found and taken.
 */
export const CHANGE_PLAN_HINT = 'change plan: PUT /account/plan (studio: Plans page; the plans: GET /plans)';

/** A plan as GET /plans lists it. */
export function planView(name: PlanName) {
  const plan = PLANS[name];
  return {
    name,
    price: { amount: plan.priceCents, currency: PLAN_CURRENCY, interval: 'month' as const },
    monthly_allowance: plan.monthlyVideos,
    library_cap: plan.libraryCap,
    avatar_cap: plan.avatarCap,
    ai_helpers_per_day: plan.aiHelpersPerDay,
    ai_helpers_per_minute: plan.aiHelpersPerMinute,
    video_retention_days: plan.videoRetentionDays,
  };
}
