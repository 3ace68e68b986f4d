/**
 * Write-sharded sparse sets on gsi2. A set every job writes to (the active jobs, the reserved units,
 * the webhook outbox and due deliveries) as one partition key would cap the service at that key's
 * 1,000 writes a second; spread over INDEX_SHARDS keys it is not the limit (docs/aws.md, "Capacity").
 * An item's shard follows from its own id, so rewriting its index key keeps it in its shard, and every
 * reader queries all the shards at once.
 *
 * Items written before the sets were sharded carry them in one gsi1 partition per set (the set's bare
 * name). Readers read that partition too, and a write that moves such an item's index key moves it to
 * its shard; nothing has to be migrated ahead of a deploy.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { GSI1, GSI2 } from './keys';
import type { DynamoTable } from './table';

/** Shards per set: 16 × 1,000 writes a second per set, far past what one job's writes need (docs/aws.md). */
export const INDEX_SHARDS = 16;

/** FNV-1a, 32 bits: cheap, stable across processes and versions, and spreads short ids evenly. */
export function shardOf(itemId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < itemId.length; i++) {
    hash ^= itemId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INDEX_SHARDS;
}

const shardKey = (set: string, shard: number) => `${set}#${String(shard).padStart(2, '0')}`;

/** The gsi2 partition of the item whose own id is `itemId`, in `set`. */
export const shardedPk = (set: string, itemId: string) => shardKey(set, shardOf(itemId));

/**
 * The sort-key range a read asks of the set's legacy partition: by default the one it asks of the
 * shards (the set kept its sort keys), `skip` to leave that partition out.
 */
export type LegacyRange = SortRange | 'skip';

/** Where the items of a set sit: every shard on gsi2, and (unless skipped) the set's legacy partition on gsi1. */
function partitionsOf(set: string, range: SortRange, legacy: LegacyRange = range): Partition[] {
  const shards = Array.from({ length: INDEX_SHARDS }, (_, shard) => ({ index: GSI2, pk: shardKey(set, shard), legacy: false, range }));
  return legacy === 'skip' ? shards : [...shards, { index: GSI1, pk: set, legacy: true, range: legacy }];
}

/** Attribute names of the two indexes' keys, by index. */
const KEY_NAMES = { [GSI1]: { pk: 'gsi1pk', sk: 'gsi1sk' }, [GSI2]: { pk: 'gsi2pk', sk: 'gsi2sk' } } as const;

/** A sort-key condition on a set's partitions: `BETWEEN from AND to`, `< below`, `<= upTo`, or none. */
export type SortRange = { from: string; to: string } | { below: string } | { upTo: string } | Record<string, never>;

export interface ShardRead {
  /** At most this many items from each partition (each read still follows its pages to get them). */
  perPartition?: number;
  /** Asked before each page: false stops every partition's read where it is. */
  goOn?: () => boolean;
}

export interface ShardItem {
  item: Record<string, unknown>;
  /** The item's sort key in the partition it was found in. */
  sk: string;
  legacy: boolean;
}

export interface ShardReadResult {
  items: ShardItem[];
  /** Whether every partition was read to its end (or to `perPartition`): false when `goOn` stopped it. */
  complete: boolean;
}

/** Reads the set's items in `range` from all its partitions in parallel, each following LastEvaluatedKey. */
export async function readSet(table: DynamoTable, set: string, range: SortRange, options: ShardRead = {}, legacy?: LegacyRange): Promise<ShardReadResult> {
  const reads = await Promise.all(partitionsOf(set, range, legacy).map((partition) => readPartition(table, partition, options)));
  return { items: reads.flatMap((read) => read.items), complete: reads.every((read) => read.complete) };
}

async function readPartition(table: DynamoTable, partition: Partition, options: ShardRead): Promise<ShardReadResult> {
  const names = KEY_NAMES[partition.index as keyof typeof KEY_NAMES];
  const query = rangeQuery(table, partition.index, names, partition.pk, partition.range);
  const items: ShardItem[] = [];
  const wanted = options.perPartition ?? Infinity;
  let start: Record<string, unknown> | undefined;
  do {
    if (options.goOn && !options.goOn()) return { items, complete: false };
    const limit = Number.isFinite(wanted) ? { Limit: wanted - items.length } : {};
    const out = await table.client.send(new QueryCommand({ ...query, ...limit, ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) items.push({ item, sk: item[names.sk] as string, legacy: partition.legacy });
    start = out.LastEvaluatedKey;
  } while (start && items.length < wanted);
  return { items, complete: true };
}

function rangeQuery(table: DynamoTable, index: string, names: { pk: string; sk: string }, pk: string, range: SortRange): QueryCommandInput {
  const base = { TableName: table.name, IndexName: index, ExpressionAttributeNames: { '#pk': names.pk, '#sk': names.sk } };
  if ('from' in range) return { ...base, KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to', ExpressionAttributeValues: { ':pk': pk, ':from': range.from, ':to': range.to } };
  if ('below' in range) return { ...base, KeyConditionExpression: '#pk = :pk AND #sk < :below', ExpressionAttributeValues: { ':pk': pk, ':below': range.below } };
  if ('upTo' in range) return { ...base, KeyConditionExpression: '#pk = :pk AND #sk <= :upTo', ExpressionAttributeValues: { ':pk': pk, ':upTo': range.upTo } };
  return { ...base, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': names.pk }, ExpressionAttributeValues: { ':pk': pk } };
}

interface Partition {
  index: string;
  pk: string;
  legacy: boolean;
  range: SortRange;
}

/**
 * The set's items in `range` from all its partitions, as they arrive: every partition's first page is
 * asked for at once, and a partition's next page as soon as its last one is handed over, so a reader
 * that stops early (out of time) has read little past what it used.
 */
export async function* streamSet(table: DynamoTable, set: string, range: SortRange, legacy?: LegacyRange): AsyncGenerator<ShardItem> {
  type Page = { partition: Partition; items: ShardItem[]; start?: Record<string, unknown> };
  const pageOf = (partition: Partition, start?: Record<string, unknown>): Promise<Page> => {
    const names = KEY_NAMES[partition.index as keyof typeof KEY_NAMES];
    const page = table.client
      .send(new QueryCommand({ ...rangeQuery(table, partition.index, names, partition.pk, partition.range), ExclusiveStartKey: start }))
      .then((out) => ({
        partition,
        items: (out.Items ?? []).map((item) => ({ item, sk: item[names.sk] as string, legacy: partition.legacy })),
        start: out.LastEvaluatedKey,
      }));
    // A reader that stopped leaves pages nobody awaits: their failure is nobody's to report.
    page.catch(() => undefined);
    return page;
  };
  const pending = new Map<Partition, Promise<Page>>(partitionsOf(set, range, legacy).map((partition) => [partition, pageOf(partition)]));
  while (pending.size > 0) {
    const page = await Promise.race(pending.values());
    if (page.start) pending.set(page.partition, pageOf(page.partition, page.start));
    else pending.delete(page.partition);
    yield* page.items;
  }
}

/** The oldest `limit` of items found in several partitions, by their sort key (each partition's own order). */
export function oldestFirst(items: ShardItem[], limit = Infinity): ShardItem[] {
  return [...items].sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0)).slice(0, limit);
}
