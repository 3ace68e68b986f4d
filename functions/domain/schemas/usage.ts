/** GET /usage: the plan and each counter against its limit. */
import * as z from 'zod/mini';
import { PLAN_NAMES, type PlanName } from '#domain/plans';
import { meaning, timestamp } from './envelope';

const count = (what: string) => meaning(z.int().check(z.nonnegative()), what);
const plan = z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]);
const against = (what: string) =>
  meaning(z.object({ used: count('Kept now'), cap: count("The plan's cap"), remaining: count('Room left') }), what);

export const usageResponse = z
  .object({
    plan: z
      .object({
        name: plan.check(z.meta({ description: 'The plan in force now' })),
        monthly_allowance: count('Videos a billing period'),
        library_cap: count('Saved reactions the library keeps'),
        avatar_cap: count('Avatars the account keeps'),
        ai_helpers_per_day: count('Hook-idea and prompt-avatar requests a rolling day'),
        ai_helpers_per_minute: count('Hook-idea and prompt-avatar requests a rolling minute'),
        pending_plan: z.nullable(plan).check(z.meta({ description: 'A downgrade waiting for the next billing period, or null' })),
        plan_changes_at: z.nullable(timestamp).check(z.meta({ description: 'When `pending_plan` takes over, or null' })),
      })
      .check(z.meta({ description: 'The plan in force and its limits (GET /plans lists every plan); change it with PUT /account/plan from the studio' })),
    period: meaning(
      z.object({ start: meaning(timestamp, 'Its first instant'), end: meaning(timestamp, 'When the next begins (the allowance renews then)') }),
      'The billing period now: a calendar month, UTC',
    ),
    allowance: meaning(
      z.object({
        limit: count("The plan's videos this period"),
        used: count('Charged this period'),
        reserved: count('Held by jobs still running'),
        remaining: count('What is left to reserve'),
      }),
      "This period's videos",
    ),
    library: against('Saved reactions against the cap'),
    avatars: against("The account's avatars against the cap (stock ones do not count)"),
  })
  .register(z.globalRegistry, { id: 'Usage', description: "The plan in force and this period's counters against its limits" });
