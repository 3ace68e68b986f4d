/**
 * A rate limit shared by every instance: counters live in DynamoDB, one item per fixed window, and a
 * request is admitted by a conditional increment, so concurrent requests can never pass the limit.
 * A refused request writes nothing and therefore does not count (DESIGN §2).
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { keys } from './keys';
import {
  maxCurrentCountForAdmission,
  msUntilAdmission,
  remainingAfter,
  windowPosition,
} from '#domain/sliding-window';

export interface RateLimitRule {
  /** What is being limited, e.g. `api:42` or `ai-minute:42`. */
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

/**
 * Past windows no longer change, so an instance reads each one once; but right after a window ends,
 * requests admitted in its last moments may still be landing in it, so it is read afresh until then.
 */
const previousCounts = new Map<string, number>();
const MAX_CACHED = 10_000;
const SETTLE_MS = 2_000;

async function previousWindowCount(bucket: string, previousStart: number, windowMs: number, now: number): Promise<number> {
  const cacheKey = `${bucket}@${previousStart}`;
  const cached = previousCounts.get(cacheKey);
  if (cached !== undefined) return cached;
  const out = await dynamo().send(
    new GetCommand({
      TableName: config.tableName,
      Key: keys.rateWindow(bucket, previousStart),
      ProjectionExpression: 'c',
      ConsistentRead: true,
    }),
  );
  const count = Number(out.Item?.c ?? 0);
  if (now - (previousStart + windowMs) >= SETTLE_MS) {
    if (previousCounts.size >= MAX_CACHED) previousCounts.clear();
    previousCounts.set(cacheKey, count);
  }
  return count;
}

export async function consume(rule: RateLimitRule, now = Date.now()): Promise<RateDecision> {
  const position = windowPosition(now, rule.windowMs);
  const previous = await previousWindowCount(rule.bucket, position.windowStart - rule.windowMs, rule.windowMs, now);
  const maxCurrent = maxCurrentCountForAdmission(rule.limit, previous, position.elapsed);
  const resetS = Math.ceil(((1 - position.elapsed) * rule.windowMs) / 1000);
  const refuse = (current: number): RateDecision => ({
    allowed: false,
    limit: rule.limit,
    remaining: 0,
    resetS,
    retryAfterS: Math.max(1, Math.ceil(msUntilAdmission(rule.limit, previous, current, position) / 1000)),
  });

  if (maxCurrent < 0) {
    const current = await currentWindowCount(rule.bucket, position.windowStart);
    return refuse(current);
  }
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.rateWindow(rule.bucket, position.windowStart),
        UpdateExpression: 'ADD c :one SET expires_at = if_not_exists(expires_at, :ttl)',
        ConditionExpression: 'attribute_not_exists(c) OR c <= :max',
        ExpressionAttributeValues: {
          ':one': 1,
          ':max': maxCurrent,
          ':ttl': Math.floor((position.windowStart + 3 * rule.windowMs) / 1000),
        },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const current = Number(out.Attributes?.c ?? 1);
    return {
      allowed: true,
      limit: rule.limit,
      remaining: remainingAfter(rule.limit, previous, current, position.elapsed),
      resetS,
    };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      return refuse(Number((error.Item as { c?: { N?: string } } | undefined)?.c?.N ?? maxCurrent + 1));
    }
    throw error;
  }
}

async function currentWindowCount(bucket: string, windowStart: number): Promise<number> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.rateWindow(bucket, windowStart), ProjectionExpression: 'c', ConsistentRead: true }),
  );
  return Number(out.Item?.c ?? 0);
}

/**
 * Admits a request only if every rule admits it, counting it against all of them or none (one
 * transaction), so a request refused by the daily limit does not eat into the per-minute one.
 */
export async function consumeAll(rules: readonly RateLimitRule[], now = Date.now()): Promise<RateDecision[]> {
  const plans = await Promise.all(
    rules.map(async (rule) => {
      const position = windowPosition(now, rule.windowMs);
      const previous = await previousWindowCount(rule.bucket, position.windowStart - rule.windowMs, rule.windowMs, now);
      return { rule, position, previous, maxCurrent: maxCurrentCountForAdmission(rule.limit, previous, position.elapsed) };
    }),
  );
  const decide = (allowedAll: boolean, currents: number[]): RateDecision[] =>
    plans.map((plan, i) => {
      const current = currents[i]!;
      const resetS = Math.ceil(((1 - plan.position.elapsed) * plan.rule.windowMs) / 1000);
      const overThisRule = current > plan.maxCurrent;
      return {
        allowed: allowedAll,
        limit: plan.rule.limit,
        remaining: allowedAll ? remainingAfter(plan.rule.limit, plan.previous, current, plan.position.elapsed) : overThisRule ? 0 : remainingAfter(plan.rule.limit, plan.previous, current, plan.position.elapsed),
        resetS,
        ...(allowedAll || !overThisRule
          ? {}
          : { retryAfterS: Math.max(1, Math.ceil(msUntilAdmission(plan.rule.limit, plan.previous, current, plan.position) / 1000)) }),
      };
    });

  if (plans.some((p) => p.maxCurrent < 0)) {
    const currents = await Promise.all(plans.map((p) => currentWindowCount(p.rule.bucket, p.position.windowStart)));
    return decide(false, currents.map((c, i) => (plans[i]!.maxCurrent < 0 ? Math.max(c, plans[i]!.maxCurrent + 1) : c)));
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: plans.map((plan) => ({
            Update: {
              TableName: config.tableName,
              Key: keys.rateWindow(plan.rule.bucket, plan.position.windowStart),
              UpdateExpression: 'ADD c :one SET expires_at = if_not_exists(expires_at, :ttl)',
              ConditionExpression: 'attribute_not_exists(c) OR c <= :max',
              ExpressionAttributeValues: {
                ':one': 1,
                ':max': plan.maxCurrent,
                ':ttl': Math.floor((plan.position.windowStart + 3 * plan.rule.windowMs) / 1000),
              },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          })),
        }),
      );
      const currents = await Promise.all(plans.map((p) => currentWindowCount(p.rule.bucket, p.position.windowStart)));
      return decide(true, currents);
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      // Another transaction touched the same counters at the same moment: try again.
      if (reasons.some((r) => r.Code === 'TransactionConflict') && attempt < 5) {
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
        continue;
      }
      const currents = plans.map((plan, i) => {
        const reason = reasons[i];
        if (reason?.Code !== 'ConditionalCheckFailed') return 0;
        return Number((reason.Item as { c?: { N?: string } } | undefined)?.c?.N ?? plan.maxCurrent + 1);
      });
      return decide(false, currents);
    }
  }
}
