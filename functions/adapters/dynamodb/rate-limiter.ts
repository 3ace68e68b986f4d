/**
 * A rate limit shared by every instance: counters live in DynamoDB, one item per fixed window, and a
 * request is admitted by a conditional increment, so concurrent requests can never pass the limit.
 * A refused request writes nothing and therefore does not count (DESIGN §2).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws-clients';
import { config } from '../../config';
import { keys } from './keys';
import {
  maxCurrentCountForAdmission,
  msUntilAdmission,
  remainingAfter,
  windowPosition,
} from '../../domain/sliding-window';

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

/** Past windows no longer change, so an instance reads each one once. */
const previousCounts = new Map<string, number>();
const MAX_CACHED = 10_000;

async function previousWindowCount(bucket: string, previousStart: number): Promise<number> {
  const cacheKey = `${bucket}@${previousStart}`;
  const cached = previousCounts.get(cacheKey);
  if (cached !== undefined) return cached;
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.rateWindow(bucket, previousStart), ProjectionExpression: 'c' }),
  );
  const count = Number(out.Item?.c ?? 0);
  if (previousCounts.size >= MAX_CACHED) previousCounts.clear();
  previousCounts.set(cacheKey, count);
  return count;
}

export async function consume(rule: RateLimitRule, now = Date.now()): Promise<RateDecision> {
  const position = windowPosition(now, rule.windowMs);
  const previous = await previousWindowCount(rule.bucket, position.windowStart - rule.windowMs);
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
    new GetCommand({ TableName: config.tableName, Key: keys.rateWindow(bucket, windowStart), ProjectionExpression: 'c' }),
  );
  return Number(out.Item?.c ?? 0);
}
