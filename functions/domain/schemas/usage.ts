/** GET /usage: the plan and each counter against its limit. */
import * as z from 'zod/mini';
import { PLAN_NAMES, type PlanName } from '#domain/plans';
import { timestamp } from './envelope';

const count = z.int().check(z.nonnegative());
const plan = z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]);
const against = z.object({ used: count, cap: count, remaining: count });

export const usageResponse = z
  .object({
    plan: z
      .object({
        name: plan.check(z.meta({ description: 'The plan in force now' })),
        monthly_allowance: count,
        library_cap: count,
        avatar_cap: count,
        ai_helpers_per_day: count,
        ai_helpers_per_minute: count,
        pending_plan: z.nullable(plan).check(z.meta({ description: 'A downgrade waiting for the next billing period, or null' })),
        plan_changes_at: z.nullable(timestamp).check(z.meta({ description: 'When `pending_plan` takes over, or null' })),
      })
      .check(z.meta({ description: 'The plan in force and its limits (GET /plans lists every plan); change it with PUT /account/plan from the studio' })),
    period: z.object({ start: timestamp, end: timestamp }),
    allowance: z.object({ limit: count, used: count, reserved: count, remaining: count }),
    library: against,
    avatars: against,
  })
  .register(z.globalRegistry, { id: 'Usage' });
