/**
 * Limits shared by every instance of the service, over a sliding window (functions/domain/sliding-window.ts).
 * A refused request does not count against its limit.
 */
import type { RateDecision, RateLimitRule } from '#domain/sliding-window';

export type { RateDecision } from '#domain/sliding-window';

export interface RateLimiter {
  consume(rule: RateLimitRule, nowMs?: number): Promise<RateDecision>;
  /**
   * Admits a request only if every rule admits it, counting it against all of them or none, so a
   * request refused by a daily limit does not eat into a per-minute one.
   */
  consumeAll(rules: readonly RateLimitRule[], nowMs?: number): Promise<RateDecision[]>;
  /** What `consume` would answer now, counting nothing (a dry run reads its limit this way). */
  peek(rule: RateLimitRule, nowMs?: number): Promise<RateDecision>;
}
