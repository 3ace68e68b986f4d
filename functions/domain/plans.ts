/** Plans: the only place their numbers live (docs/decisions.md lists them). */

/**
 * `avatarCap` bounds GET /avatars, which lists the whole set (no pagination in the contract): like
 * the library cap, a counter moved in the create's transaction admits each new avatar.
 */
const PLANS = {
  free: { monthlyVideos: 3, libraryCap: 3, avatarCap: 10, aiHelpersPerDay: 20, aiHelpersPerMinute: 5 },
  starter: { monthlyVideos: 30, libraryCap: 10, avatarCap: 25, aiHelpersPerDay: 100, aiHelpersPerMinute: 10 },
  pro: { monthlyVideos: 150, libraryCap: 50, avatarCap: 100, aiHelpersPerDay: 500, aiHelpersPerMinute: 20 },
  business: { monthlyVideos: 600, libraryCap: 200, avatarCap: 250, aiHelpersPerDay: 2000, aiHelpersPerMinute: 40 },
} as const;

export type PlanName = keyof typeof PLANS;
export type Plan = (typeof PLANS)[PlanName];

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}

export function planOf(name: PlanName): Plan {
  return PLANS[name];
}
