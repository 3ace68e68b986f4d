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
  // One extra item tells whether anything follows the page without a second round trip.
  const read = await takeItems(table, { ...base, ExclusiveStartKey: startKey }, perPage + 1);
  const reachedEnd = read.items.length <= perPage && !read.lastKey;
  return { items: read.items.slice(0, perPage), skipped, reachedEnd };
}

/**
 * Up to `count` items of `query`, asking each request for only what is still missing, and the key to
 * go on from (none once the query is done).
 */
export async function takeItems(
  table: DynamoTable,
  query: QueryCommandInput,
  count: number,
): Promise<{ items: Record<string, unknown>[]; lastKey?: Record<string, unknown> }> {
  const items: Record<string, unknown>[] = [];
  let startKey = query.ExclusiveStartKey;
  do {
    const out = await table.client.send(new QueryCommand({ ...query, Limit: count - items.length, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < count);
  return { items, lastKey: startKey };
}

/** The items of `query`, page after page, read only as far as the caller goes on iterating. */
export async function* queryItems(table: DynamoTable, query: QueryCommandInput): AsyncGenerator<Record<string, unknown>> {
  for await (const out of paginateQuery({ client: table.client }, query)) yield* out.Items ?? [];
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
