/**
 * Page-number pages of a counted collection, newest first, at a cost that does not grow with the
 * collection: the total is the counter (one read), and a page is located by adding block counts from
 * whichever end of the list is nearer, then reading from that block's edge. The first and last pages
 * read the counter, at most a few block counts and the page (plus fewer than BLOCK_SIZE skipped items);
 * a page in the middle of n items reads up to n / (2 × BLOCK_SIZE) block counts more.
 *
 * A collection never counted (written before counters, untouched since) is paged the old way, with
 * a COUNT, until its first create or delete, or the operator's recount, counts it.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from './table';
import { collectionBlockPrefix, keys, padId } from './keys';
import { BLOCK_SIZE, COLLECTIONS, counterOf, type Block, type CollectionRef } from './collection-state';
import { queryPage, prefixQuery, type PageSlice } from './pagination';

const LOWEST = padId(0);
const HIGHEST = '9'.repeat(LOWEST.length);

export async function collectionPage(
  table: DynamoTable,
  ref: CollectionRef,
  page: number,
  perPage: number,
): Promise<PageSlice<Record<string, unknown>>> {
  const prefix = COLLECTIONS[ref.collection].prefix;
  const state = await counterOf(table, ref);
  if (!state.seeded) return queryPage(table, keys.accountPartition(ref.accountId), prefix, page, perPage);
  const total = state.count;
  const offset = (page - 1) * perPage;
  if (offset >= total) return { items: [], total };
  const wanted = Math.min(perPage, total - offset);
  const locate = (newestFirst: boolean, position: number) => locateBlock(table, ref, state.generation, newestFirst, position);

  if (offset === 0) return { items: await readRange(table, ref, { newestFirst: true, from: HIGHEST, skip: 0, take: wanted }), total };
  // Positions counted from the oldest item: the page's oldest item sits at `fromOldest`.
  const fromOldest = total - offset - wanted;
  if (offset <= fromOldest) {
    const at = await locate(true, offset);
    // Newest first, block i spans ids from its start up to the next newer block's start - 1.
    const from = at.newer ? padId(at.newer.start - 1) : HIGHEST;
    return { items: await readRange(table, ref, { newestFirst: true, from, skip: at.skip, take: wanted }), total };
  }
  const at = await locate(false, fromOldest);
  const items = await readRange(table, ref, { newestFirst: false, from: padId(at.block?.start ?? 0), skip: at.skip, take: wanted });
  return { items: items.reverse(), total };
}

interface Location {
  /** The block holding the position (undefined: no blocks were found). */
  block?: Block;
  /** The block read just before it, on the side the count started from. */
  newer?: Block;
  /** Items of the block before the position. */
  skip: number;
}

/** The block holding the `position`-th item counted from one end. */
async function locateBlock(table: DynamoTable, ref: CollectionRef, generation: number, newestFirst: boolean, position: number): Promise<Location> {
  let passed = 0;
  let previous: Block | undefined;
  for await (const block of blockCounts(table, ref, generation, newestFirst, () => position - passed)) {
    if (passed + block.count > position) return { block, newer: previous, skip: position - passed };
    passed += block.count;
    previous = block;
  }
  // The blocks add up to less than the counter (a recount swapping generations right now): skip from the end.
  return { skip: position };
}

/**
 * Block counts in order, fetched as many at a time as full blocks would need to pass the items
 * `stillToPass` says are left (plus one): blocks thinned by deletes only cost another round.
 */
async function* blockCounts(table: DynamoTable, ref: CollectionRef, generation: number, newestFirst: boolean, stillToPass: () => number): AsyncGenerator<Block> {
  const prefix = collectionBlockPrefix(ref.collection, generation);
  let startKey: Record<string, unknown> | undefined;
  do {
    const limit = Math.min(1000, Math.floor(Math.max(0, stillToPass()) / BLOCK_SIZE) + 2);
    const out = await table.client.send(
      new QueryCommand({
        ...prefixQuery(table, keys.accountPartition(ref.accountId), prefix),
        ProjectionExpression: '#start, #count',
        ExpressionAttributeNames: { '#start': 'start', '#count': 'count' },
        ScanIndexForward: !newestFirst,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) yield { start: Number(item.start), count: Math.max(0, Number(item.count)) };
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}

/** `take` items after skipping `skip`, walking from the padded id `from` (inclusive) in one direction. */
async function readRange(
  table: DynamoTable,
  ref: CollectionRef,
  range: { newestFirst: boolean; from: string; skip: number; take: number },
): Promise<Record<string, unknown>[]> {
  const prefix = COLLECTIONS[ref.collection].prefix;
  const [low, high] = range.newestFirst ? [LOWEST, range.from] : [range.from, HIGHEST];
  const query: QueryCommandInput = {
    TableName: table.name,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': keys.accountPartition(ref.accountId), ':low': prefix + low, ':high': prefix + high },
    ScanIndexForward: !range.newestFirst,
  };
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    // Skipped items are read whole: a projection would not make them cheaper (DynamoDB bills the item).
    const out = await table.client.send(new QueryCommand({ ...query, Limit: range.skip + range.take - items.length, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < range.skip + range.take);
  return items.slice(range.skip, range.skip + range.take);
}
