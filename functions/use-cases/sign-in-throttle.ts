/** Admits a sign-in (or password-reset) request under every throttle named, or refuses it as 429 with the longest wait. */
import { AppError } from '#domain/errors';
import type { RateLimitRule } from '#domain/sliding-window';
import type { Ports } from '#ports/ports';

export async function admitSignIn(deps: Pick<Ports, 'rateLimits' | 'now'>, rules: readonly RateLimitRule[], what = 'sign-in attempts'): Promise<void> {
  const decisions = await deps.rateLimits.consumeAll(rules, deps.now().getTime());
  if (decisions.every((d) => d.allowed)) return;
  const retryAfterS = Math.max(1, ...decisions.map((d) => d.retryAfterS ?? 0));
  throw new AppError('rate_limited', `Too many ${what}: retry in ${retryAfterS} s`, { headers: { 'retry-after': String(retryAfterS) } });
}
