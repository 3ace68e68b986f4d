/**
 * Page-number pagination over one partition's sort-key prefix, newest first. DynamoDB has no offset,
 * so earlier pages are skipped reading keys only; the total is a COUNT over the same prefix.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws-clients';
import { config } from '../../config';

export interface PageSlice<T> {
  items: T[];
  total: number;
}

export async function pageOfPrefix(
  partition: string,
  prefix: string,
  page: number,
  perPage: number,
): Promise<PageSlice<Record<string, unknown>>> {
  const base: QueryCommandInput = {
    TableName: config.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
    ScanIndexForward: false,
  };
  const [items, total] = await Promise.all([readPage(base, (page - 1) * perPage, perPage), countAll(base)]);
  return { items, total };
}

async function readPage(base: QueryCommandInput, offset: number, perPage: number): Promise<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  let toSkip = offset;
  while (toSkip > 0) {
    const out = await dynamo().send(
      new QueryCommand({ ...base, ProjectionExpression: 'pk, sk', Limit: toSkip, ExclusiveStartKey: startKey }),
    );
    toSkip -= out.Items?.length ?? 0;
    startKey = out.LastEvaluatedKey;
    if (!startKey) return [];
  }
  const items: Record<string, unknown>[] = [];
  do {
    const out = await dynamo().send(new QueryCommand({ ...base, Limit: perPage - items.length, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < perPage);
  return items;
}

async function countAll(base: QueryCommandInput): Promise<number> {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(new QueryCommand({ ...base, Select: 'COUNT', ExclusiveStartKey: startKey }));
    total += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return total;
}
