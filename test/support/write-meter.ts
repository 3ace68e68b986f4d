/**
 * Counts the DynamoDB writes a table's client makes, per partition key: of the base table and of each
 * global index, with the write units each takes. It reads every written item before and after the
 * write (the test drives one request at a time), and from the two images derives what DynamoDB does:
 * the base item costs max(before, after) in 1 KB units, twice inside a transaction, also when a
 * condition refuses it; an index entry is written when it appears (a put), disappears (a delete), has
 * its key changed (a delete and a put, each in its own partition) or keeps its key with a projected
 * attribute changed (an update). An update that changes nothing an index holds writes nothing to it.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { TABLE_SCHEMA } from '#lib/table-schema';
const { abs, ceil, max } = Math;

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

export interface PartitionWrites {
  /** `table` or an index name. */
  where: string;
  pk: string;
  writes: number;
  wcu: number;
}

const KB = 1024;

/** DynamoDB's item size: attribute names and values in bytes (numbers about one byte per two digits). */
function itemBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return ceil(String(abs(value)).replace(/[.-]/g, '').length / 2) + 1;
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, v) => sum + 1 + itemBytes(v), 0);
  if (typeof value === 'object') return 3 + Object.entries(value).reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + 1 + itemBytes(v), 0);
  return 8;
}

const stableJson = (value: unknown): string =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? `{${Object.keys(value)
        .sort()
        .map((name) => `${JSON.stringify(name)}:${stableJson((value as Item)[name])}`)
        .join(',')}}`
    : Array.isArray(value)
      ? `[${value.map(stableJson).join(',')}]`
      : JSON.stringify(value);

const units = (bytes: number) => max(1, ceil(bytes / KB));
/** A key attribute as the request carries it: a plain string, or marshalled (`{ S: ... }`). */
const plain = (value: unknown) => (value && typeof value === 'object' && 'S' in value ? (value as { S: string }).S : (value as string));

/** The keys of the items a write request names, and whether it is a transaction. */
function writtenKeys(command: string, input: Item): { keys: Key[]; transactional: boolean } | undefined {
  const keyOf = (source: unknown) => {
    const item = source as Item | undefined;
    return item ? { pk: plain(item.pk), sk: plain(item.sk) } : undefined;
  };
  if (command === 'PutCommand' || command === 'PutItemCommand') return { keys: [keyOf(input.Item)!], transactional: false };
  if (['UpdateCommand', 'UpdateItemCommand', 'DeleteCommand', 'DeleteItemCommand'].includes(command)) return { keys: [keyOf(input.Key)!], transactional: false };
  if (command === 'TransactWriteCommand' || command === 'TransactWriteItemsCommand') {
    const items = (input.TransactItems as Item[]).flatMap((t) => {
      const put = t.Put as Item | undefined;
      const change = (t.Update ?? t.Delete) as Item | undefined;
      if (put) return [keyOf(put.Item)!];
      if (change) return [keyOf(change.Key)!];
      return []; // A ConditionCheck is a read.
    });
    return { keys: items, transactional: true };
  }
  return undefined;
}

type IndexSchema = (typeof TABLE_SCHEMA.globalIndexes)[number];

/** The index entry an item makes (its key and what the index projects), or undefined when it is not in the index. */
function indexEntry(index: IndexSchema, item: Item | undefined): { pk: string; sk: string; projected: Item } | undefined {
  if (!item || typeof item[index.partitionKey] !== 'string' || typeof item[index.sortKey] !== 'string') return undefined;
  const names = index.projection.type === 'ALL' ? Object.keys(item) : [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey, index.partitionKey, index.sortKey, ...index.projection.attributes];
  const projected = Object.fromEntries(names.filter((name) => item[name] !== undefined).map((name) => [name, item[name]]));
  return { pk: item[index.partitionKey] as string, sk: item[index.sortKey] as string, projected };
}

export class WriteMeter {
  private readonly byPartition = new Map<string, PartitionWrites>();
  private paused = false;

  constructor(private readonly table: DynamoTable) {
    table.client.middlewareStack.add(
      (next, context) => async (args) => {
        const written = this.paused ? undefined : writtenKeys(context.commandName ?? '', args.input as Item);
        if (!written) return next(args);
        const before = await this.images(written.keys);
        try {
          return await next(args);
        } finally {
          this.count(written.keys, written.transactional, before, await this.images(written.keys));
        }
      },
      { step: 'initialize', name: 'writeMeter' },
    );
  }

  /** Runs `work` without counting it (a test's setup). */
  async unmetered<T>(work: () => Promise<T>): Promise<T> {
    this.paused = true;
    try {
      return await work();
    } finally {
      this.paused = false;
    }
  }

  partitions(): PartitionWrites[] {
    return [...this.byPartition.values()];
  }

  reset(): void {
    this.byPartition.clear();
  }

  /** Reads pass the meter uncounted (only writes are). */
  private async images(itemKeys: Key[]): Promise<(Item | undefined)[]> {
    return Promise.all(itemKeys.map(async (Key) => (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }))).Item));
  }

  private count(itemKeys: Key[], transactional: boolean, before: (Item | undefined)[], after: (Item | undefined)[]): void {
    itemKeys.forEach((key, i) => {
      const [b, a] = [before[i], after[i]];
      const base = units(max(b ? itemBytes(b) : 0, a ? itemBytes(a) : 0));
      this.add('table', key.pk, transactional ? 2 * base : base);
      for (const index of TABLE_SCHEMA.globalIndexes) this.countIndex(index, indexEntry(index, b), indexEntry(index, a));
    });
  }

  private countIndex(index: IndexSchema, b: ReturnType<typeof indexEntry>, a: ReturnType<typeof indexEntry>): void {
    const size = (entry: NonNullable<typeof a>) => units(itemBytes(entry.projected));
    if (b && a && b.pk === a.pk && b.sk === a.sk) {
      if (stableJson(b.projected) !== stableJson(a.projected)) this.add(index.name, a.pk, size(a));
      return;
    }
    if (b) this.add(index.name, b.pk, size(b));
    if (a) this.add(index.name, a.pk, size(a));
  }

  private add(where: string, pk: string, wcu: number): void {
    const id = `${where}\u0000${pk}`;
    const partition = this.byPartition.get(id) ?? { where, pk, writes: 0, wcu: 0 };
    partition.writes++;
    partition.wcu += wcu;
    this.byPartition.set(id, partition);
  }
}
