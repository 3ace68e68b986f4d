/**
 * The sliding-window counter: the previous fixed window's count, weighted by how much of it still
 * overlaps the rolling window, plus the current window's count. It approximates a true rolling window
 * with two counters, so the shared store needs one conditional write per request.
 */

export interface WindowPosition {
  windowStart: number;
  windowMs: number;
  /** Fraction of the current window already elapsed, 0..1. */
  elapsed: number;
}

export function windowPosition(nowMs: number, windowMs: number): WindowPosition {
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  return { windowStart, windowMs, elapsed: (nowMs - windowStart) / windowMs };
}

/** The highest current-window count that still admits one more request; negative means none. */
export function maxCurrentCountForAdmission(limit: number, previousCount: number, elapsed: number): number {
  return Math.floor(limit - 1 - previousCount * (1 - elapsed));
}

export function remainingAfter(limit: number, previousCount: number, currentCount: number, elapsed: number): number {
  return Math.max(0, Math.floor(limit - currentCount - previousCount * (1 - elapsed)));
}

/** Milliseconds until one more request would be admitted, given the counts at refusal. */
export function msUntilAdmission(limit: number, previousCount: number, currentCount: number, position: WindowPosition): number {
  const { windowMs, elapsed } = position;
  if (currentCount + 1 <= limit && previousCount > 0) {
    // Still inside this window: wait for the previous window's weight to decay enough.
    const needed = 1 - (limit - 1 - currentCount) / previousCount;
    if (needed < 1) return Math.max(0, (needed - elapsed) * windowMs);
  }
  // Next window: this window's count becomes the decaying previous one.
  const untilNext = (1 - elapsed) * windowMs;
  const neededNext = currentCount > 0 ? Math.max(0, 1 - (limit - 1) / currentCount) : 0;
  return untilNext + neededNext * windowMs;
}

export interface RateLimitRule {
  /** What is being limited, e.g. `api:42` or `analytics-sync:42`. */
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends (RateLimit-Reset). */
  resetS: number;
  /** Seconds to wait before retrying; set when refused. */
  retryAfterS?: number;
}

/** One rule at one instant: where the window stands and the most the current window may already hold. */
export interface AdmissionPlan {
  rule: RateLimitRule;
  position: WindowPosition;
  previous: number;
  maxCurrent: number;
}

export function planAdmission(rule: RateLimitRule, previousCount: number, nowMs: number): AdmissionPlan {
  const position = windowPosition(nowMs, rule.windowMs);
  return { rule, position, previous: previousCount, maxCurrent: maxCurrentCountForAdmission(rule.limit, previousCount, position.elapsed) };
}

/** The start of the window before the one `nowMs` falls in, whose count still weighs. */
export const previousWindowStart = (rule: RateLimitRule, nowMs: number) => windowPosition(nowMs, rule.windowMs).windowStart - rule.windowMs;

/**
 * The answers to a request checked against `plans`, admitted by all of them or by none; `currents`
 * are the current windows' counts (after the request when admitted, as found when refused).
 */
export function decideAdmission(plans: readonly AdmissionPlan[], admitted: boolean, currents: readonly number[]): RateDecision[] {
  return plans.map((plan, i) => {
    const current = currents[i]!;
    const resetS = Math.ceil(((1 - plan.position.elapsed) * plan.rule.windowMs) / 1000);
    const overThisRule = !admitted && current > plan.maxCurrent;
    return {
      allowed: admitted,
      limit: plan.rule.limit,
      remaining: overThisRule ? 0 : remainingAfter(plan.rule.limit, plan.previous, current, plan.position.elapsed),
      resetS,
      ...(overThisRule
        ? { retryAfterS: Math.max(1, Math.ceil(msUntilAdmission(plan.rule.limit, plan.previous, current, plan.position) / 1000)) }
        : {}),
    };
  });
}
