/**
 * A rate limit shared by every instance: counters live in DynamoDB, one item per fixed window, and a
 * request is admitted by a conditional increment, so concurrent requests can never pass the limit.
 * A refused request writes nothing and therefore does not count.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { decideAdmission, planAdmission, previousWindowStart, type AdmissionPlan, type RateDecision, type RateLimitRule } from '#domain/sliding-window';
import type { RateLimiter } from '#ports/rate-limiter';
import type { DynamoTable } from './table';
import { keys } from './keys';

const MAX_CACHED = 10_000;
const SETTLE_MS = 2_000;

/** The counter's conditional increment: admitted only while the window holds at most `maxCurrent`. */
const admit = (table: DynamoTable, plan: AdmissionPlan) => ({
  TableName: table.name,
  Key: keys.rateWindow(plan.rule.bucket, plan.position.windowStart),
  UpdateExpression: 'ADD c :one SET expires_at = if_not_exists(expires_at, :ttl)',
  ConditionExpression: 'attribute_not_exists(c) OR c <= :max',
  ExpressionAttributeValues: {
    ':one': 1,
    ':max': plan.maxCurrent,
    ':ttl': Math.floor((plan.position.windowStart + 3 * plan.rule.windowMs) / 1000),
  },
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
});

/** The count a refusing condition saw, from the item it returned. */
const countAtRefusal = (item: unknown, plan: AdmissionPlan) => Number((item as { c?: { N?: string } } | undefined)?.c?.N ?? plan.maxCurrent + 1);

export class DynamoRateLimiter implements RateLimiter {
  /**
   * Past windows no longer change, so an instance reads each one once; but right after a window ends,
   * requests admitted in its last moments may still be landing in it, so it is read afresh until then.
   */
  private readonly previousCounts = new Map<string, number>();

  constructor(private readonly table: DynamoTable) {}

  async consume(rule: RateLimitRule, now = Date.now()): Promise<RateDecision> {
    const plan = await this.plan(rule, now);
    const decide = (admitted: boolean, current: number) => decideAdmission([plan], admitted, [current])[0]!;
    if (plan.maxCurrent < 0) return decide(false, await this.windowCount(rule.bucket, plan.position.windowStart));
    try {
      const out = await this.table.client.send(new UpdateCommand({ ...admit(this.table, plan), ReturnValues: 'UPDATED_NEW' }));
      return decide(true, Number(out.Attributes?.c ?? 1));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return decide(false, countAtRefusal(error.Item, plan));
      throw error;
    }
  }

  async consumeAll(rules: readonly RateLimitRule[], now = Date.now()): Promise<RateDecision[]> {
    const plans = await Promise.all(rules.map((rule) => this.plan(rule, now)));
    const currentCounts = () => Promise.all(plans.map((p) => this.windowCount(p.rule.bucket, p.position.windowStart)));
    if (plans.some((p) => p.maxCurrent < 0)) {
      const currents = await currentCounts();
      return decideAdmission(plans, false, currents.map((c, i) => (plans[i]!.maxCurrent < 0 ? Math.max(c, plans[i]!.maxCurrent + 1) : c)));
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await this.table.client.send(new TransactWriteCommand({ TransactItems: plans.map((plan) => ({ Update: admit(this.table, plan) })) }));
        return decideAdmission(plans, true, await currentCounts());
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        // Another transaction touched the same counters at the same moment: try again.
        if (reasons.some((r) => r.Code === 'TransactionConflict') && attempt < 5) {
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
          continue;
        }
        const currents = plans.map((plan, i) => (reasons[i]?.Code === 'ConditionalCheckFailed' ? countAtRefusal(reasons[i]!.Item, plan) : 0));
        return decideAdmission(plans, false, currents);
      }
    }
  }

  async peek(rule: RateLimitRule, now = Date.now()): Promise<RateDecision> {
    const plan = await this.plan(rule, now);
    const current = await this.windowCount(rule.bucket, plan.position.windowStart);
    return decideAdmission([plan], current <= plan.maxCurrent, [current])[0]!;
  }

  private async plan(rule: RateLimitRule, now: number): Promise<AdmissionPlan> {
    return planAdmission(rule, await this.previousWindowCount(rule, previousWindowStart(rule, now), now), now);
  }

  private async previousWindowCount(rule: RateLimitRule, previousStart: number, now: number): Promise<number> {
    const cacheKey = `${rule.bucket}@${previousStart}`;
    const cached = this.previousCounts.get(cacheKey);
    if (cached !== undefined) return cached;
    const count = await this.windowCount(rule.bucket, previousStart);
    if (now - (previousStart + rule.windowMs) >= SETTLE_MS) {
      if (this.previousCounts.size >= MAX_CACHED) this.previousCounts.clear();
      this.previousCounts.set(cacheKey, count);
    }
    return count;
  }

  private async windowCount(bucket: string, windowStart: number): Promise<number> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.rateWindow(bucket, windowStart), ProjectionExpression: 'c', ConsistentRead: true }),
    );
    return Number(out.Item?.c ?? 0);
  }
}
