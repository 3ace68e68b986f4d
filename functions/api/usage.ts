/** GET /usage: the plan in force (and a downgrade waiting), this month's allowance, the saved-reaction library and the avatars against their caps. */
import type { Operation } from '#http/api-types';
import type { Ports } from '#ports/ports';
import { ok } from '#http/respond';
import { accountAt } from '#domain/account';
import { billingPeriodOf } from '#domain/billing-period';
import { planOf } from '#domain/plans';
import { notFound } from '#domain/errors';
import { allowanceState } from '#domain/quote';
import { accountOfScope, isTestScope } from '#domain/test-mode';

const get: Operation<Pick<Ports, 'accounts' | 'ledger' | 'library' | 'avatars'>> = async (request) => {
  const { accounts, ledger, library, avatars, now } = request.deps;
  const accountId = request.principal.accountId;
  const found = await accounts.get(accountOfScope(accountId));
  if (!found) throw notFound('Account');
  const at = now();
  const account = accountAt(found, at);
  const plan = planOf(account.plan);
  const period = billingPeriodOf(at);
  // A test key's jobs use no allowance: it sees the plan's allowance whole.
  const [usage, libraryUsed, avatarsUsed] = await Promise.all([
    isTestScope(accountId) ? { used: 0, reserved: 0 } : ledger.periodUsage(accountId, period.id),
    library.count(accountId),
    avatars.count(accountId),
  ]);
  return ok({
    plan: {
      name: account.plan,
      monthly_allowance: plan.monthlyVideos,
      library_cap: plan.libraryCap,
      avatar_cap: plan.avatarCap,
      ai_helpers_per_day: plan.aiHelpersPerDay,
      ai_helpers_per_minute: plan.aiHelpersPerMinute,
      pending_plan: account.pending_plan,
      plan_changes_at: account.plan_changes_at,
    },
    period: { start: period.start, end: period.end },
    allowance: allowanceState(plan.monthlyVideos, usage),
    library: { used: libraryUsed, cap: plan.libraryCap, remaining: Math.max(0, plan.libraryCap - libraryUsed) },
    avatars: { used: avatarsUsed, cap: plan.avatarCap, remaining: Math.max(0, plan.avatarCap - avatarsUsed) },
  });
};

export const usageOperations = { get };
