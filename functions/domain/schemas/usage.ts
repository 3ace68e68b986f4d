/** GET /usage: the plan and each counter against its limit. */
import * as z from 'zod/mini';
import { PLAN_NAMES, type PlanName } from '#domain/plans';
import { timestamp } from './envelope';

const count = z.int().check(z.nonnegative());
const against = z.object({ used: count, cap: count, remaining: count });

export const usageResponse = z
  .object({
    plan: z.object({
      name: z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]),
      monthly_allowance: count,
      library_cap: count,
      avatar_cap: count,
    }),
    period: z.object({ start: timestamp, end: timestamp }),
    allowance: z.object({ limit: count, used: count, reserved: count, remaining: count }),
    library: against,
    avatars: against,
  })
  .register(z.globalRegistry, { id: 'Usage' });
