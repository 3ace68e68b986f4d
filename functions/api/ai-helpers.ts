/**
 * The AI-helper backstops (DESIGN §2 plan table): POST /hooks and prompt-generated avatars share a
 * per-account budget per minute and per day. Both windows are counted in one transaction, so a
 * request refused by one does not use up the other, and concurrent requests cannot pass either.
 */
import { AppError, notFound } from '#domain/errors';
import { planOf } from '#domain/plans';
import { getAccount } from '#adapters/dynamodb/accounts';
import { consumeAll } from '#adapters/dynamodb/rate-limiter';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export async function admitAiHelper(accountId: number, now = Date.now()): Promise<void> {
  const account = await getAccount(accountId);
  if (!account) throw notFound('Account');
  const plan = planOf(account.plan);
  const [minute, day] = await consumeAll(
    [
      { bucket: `ai-minute:${accountId}`, limit: plan.aiHelpersPerMinute, windowMs: MINUTE_MS },
      { bucket: `ai-day:${accountId}`, limit: plan.aiHelpersPerDay, windowMs: DAY_MS },
    ],
    now,
  );
  if (minute!.allowed) return;
  const retryAfterS = Math.max(minute!.retryAfterS ?? 0, day!.retryAfterS ?? 0, 1);
  const which = day!.retryAfterS
    ? `the daily limit of ${plan.aiHelpersPerDay} AI-helper requests`
    : `the limit of ${plan.aiHelpersPerMinute} AI-helper requests per minute`;
  throw new AppError('rate_limited', `You reached ${which} on the ${account.plan} plan; retry in ${retryAfterS} s`, {
    headers: { 'retry-after': String(retryAfterS) },
  });
}
