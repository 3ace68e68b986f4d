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
