import { decideAdmission, planAdmission, previousWindowStart, type RateDecision, type RateLimitRule } from '#domain/sliding-window';
import type { RateLimiter } from '#ports/rate-limiter';

/** One count per (bucket, fixed window), admitted all or nothing like the DynamoDB limiter's conditional writes. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  async consume(rule: RateLimitRule, nowMs?: number): Promise<RateDecision> {
    return (await this.consumeAll([rule], nowMs))[0]!;
  }

  async consumeAll(rules: readonly RateLimitRule[], nowMs = this.clock()): Promise<RateDecision[]> {
    const plans = rules.map((rule) => planAdmission(rule, this.count(rule.bucket, previousWindowStart(rule, nowMs)), nowMs));
    const currents = plans.map((plan) => this.count(plan.rule.bucket, plan.position.windowStart));
    if (plans.some((plan, i) => currents[i]! > plan.maxCurrent)) return decideAdmission(plans, false, currents);
    for (const plan of plans) this.counts.set(key(plan.rule.bucket, plan.position.windowStart), this.count(plan.rule.bucket, plan.position.windowStart) + 1);
    return decideAdmission(plans, true, currents.map((c) => c + 1));
  }

  async peek(rule: RateLimitRule, nowMs = this.clock()): Promise<RateDecision> {
    const plan = planAdmission(rule, this.count(rule.bucket, previousWindowStart(rule, nowMs)), nowMs);
    const current = this.count(rule.bucket, plan.position.windowStart);
    return decideAdmission([plan], current <= plan.maxCurrent, [current])[0]!;
  }

  private count(bucket: string, windowStart: number): number {
    return this.counts.get(key(bucket, windowStart)) ?? 0;
  }
}

const key = (bucket: string, windowStart: number) => `${bucket}@${windowStart}`;
