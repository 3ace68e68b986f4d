/**
 * The allowance ledger's period counters: one item per account and month holding `used`, `reserved`
 * and `committed` (= used + reserved, kept because DynamoDB conditions cannot add two attributes).
 * Every change of an entry moves them in the same transaction (allowance-ledger.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PeriodUsage } from '#ports/allowance-ledger';
import { keys } from './keys';
import type { DynamoTable } from './table';
import type { TransactItem } from './transactions';

type UpdateParts = Pick<NonNullable<TransactItem['Update']>, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>;

/** The move of a period's counters that goes with a change of an entry. */
export function periodItem(table: DynamoTable, accountId: number, period: string, expression: string, rest: UpdateParts): TransactItem {
  return { Update: { TableName: table.name, Key: keys.allowancePeriod(accountId, period), UpdateExpression: expression, ...rest } };
}

/** `units` more reserved, admitted only while they all fit under `limit`. */
export function reservePeriodItem(table: DynamoTable, accountId: number, period: string, units: number, limit: number): TransactItem {
  return periodItem(table, accountId, period, 'ADD committed :n, reserved :n SET #type = :type', {
    ConditionExpression: 'attribute_not_exists(committed) OR committed <= :most',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':n': units, ':most': limit - units, ':type': 'allowance_period' },
  });
}

export async function readPeriodUsage(table: DynamoTable, accountId: number, period: string): Promise<PeriodUsage> {
  const out = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.allowancePeriod(accountId, period), ConsistentRead: true }));
  return { used: Number(out.Item?.used ?? 0), reserved: Number(out.Item?.reserved ?? 0) };
}
