/**
 * The AI-helper backstops: hook ideas and prompt-generated avatars share a per-account budget per
 * minute and per day. Both windows are counted together, so a request refused by one does not use
 * up the other, and concurrent requests cannot pass either.
 */
import { AppError, notFound } from '#domain/errors';
import { accountAt } from '#domain/account';
import { CHANGE_PLAN_HINT, planOf } from '#domain/plans';
import type { Ports } from '#ports/ports';
import { accountOfScope } from '#domain/test-mode';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export type AiHelperDeps = Pick<Ports, 'accounts' | 'rateLimits' | 'now'>;

export async function admitAiHelper(deps: AiHelperDeps, accountId: number): Promise<void> {
  const found = await deps.accounts.get(accountOfScope(accountId));
  if (!found) throw notFound('Account');
  const account = accountAt(found, deps.now());
  const plan = planOf(account.plan);
  const [minute, day] = await deps.rateLimits.consumeAll(
    [
      { bucket: `ai-minute:${accountId}`, limit: plan.aiHelpersPerMinute, windowMs: MINUTE_MS },
      { bucket: `ai-day:${accountId}`, limit: plan.aiHelpersPerDay, windowMs: DAY_MS },
    ],
    deps.now().getTime(),
  );
  if (minute!.allowed) return;
  const retryAfterS = Math.max(minute!.retryAfterS ?? 0, day!.retryAfterS ?? 0, 1);
  const which = day!.retryAfterS
    ? `the daily limit of ${plan.aiHelpersPerDay} AI-helper requests`
    : `the limit of ${plan.aiHelpersPerMinute} AI-helper requests per minute`;
  throw new AppError('rate_limited', `You reached ${which} on the ${account.plan} plan; retry in ${retryAfterS} s, or ${CHANGE_PLAN_HINT}`, {
    headers: { 'retry-after': String(retryAfterS) },
  });
}
