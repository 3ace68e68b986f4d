/**
 * Page-number pagination over one partition's sort-key prefix, newest first. DynamoDB has no offset,
 * so earlier pages are skipped reading keys only. When the page reaches the end of the list the total
 * is known from what was read; only otherwise does a COUNT over the prefix run.
 */
import { paginateQuery, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from './table';

export interface PageSlice<T> {
  items: T[];
  total: number;
}

export async function queryPage(
  table: DynamoTable,
  partition: string,
  prefix: string,
  page: number,
  perPage: number,
): Promise<PageSlice<Record<string, unknown>>> {
  const base: QueryCommandInput = { ...prefixQuery(table, partition, prefix), ScanIndexForward: false };
  const offset = (page - 1) * perPage;
  const read = await readPage(table, base, offset, perPage);
  const total = read.reachedEnd ? read.skipped + read.items.length : await countAll(table, base);
  return { items: read.items, total };
}

interface PageRead {
  items: Record<string, unknown>[];
  skipped: number;
  /** Nothing follows this page, so skipped + items is the total. */
  reachedEnd: boolean;
}

// Hand-paged: each request's Limit depends on what is still missing, which the SDK's paginator cannot vary.
async function readPage(table: DynamoTable, base: QueryCommandInput, offset: number, perPage: number): Promise<PageRead> {
  let startKey: Record<string, unknown> | undefined;
  let skipped = 0;
  while (skipped < offset) {
    const out = await table.client.send(
      new QueryCommand({ ...base, ProjectionExpression: 'pk, sk', Limit: offset - skipped, ExclusiveStartKey: startKey }),
    );
    skipped += out.Items?.length ?? 0;
    startKey = out.LastEvaluatedKey;
    if (!startKey) return { items: [], skipped, reachedEnd: true };
  }
  const items: Record<string, unknown>[] = [];
  // One extra item tells whether anything follows the page without a second round trip.
  do {
    const out = await table.client.send(new QueryCommand({ ...base, Limit: perPage + 1 - items.length, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length <= perPage);
  const reachedEnd = items.length <= perPage && !startKey;
  return { items: items.slice(0, perPage), skipped, reachedEnd };
}

/** Every item under a sort-key prefix (for sets listed whole: an account's keys, avatars, reactions). */
export async function queryAll(
  table: DynamoTable,
  partition: string,
  prefix: string,
  order: { newestFirst?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const out of paginateQuery({ client: table.client }, { ...prefixQuery(table, partition, prefix), ScanIndexForward: !order.newestFirst })) {
    items.push(...(out.Items ?? []));
  }
  return items;
}

/** A Query of the items of `partition` whose sort key starts with `prefix`. */
export function prefixQuery(table: DynamoTable, partition: string, prefix: string): QueryCommandInput {
  return {
    TableName: table.name,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
  };
}

async function countAll(table: DynamoTable, base: QueryCommandInput): Promise<number> {
  let total = 0;
  for await (const out of paginateQuery({ client: table.client }, { ...base, Select: 'COUNT' })) total += out.Count ?? 0;
  return total;
}
