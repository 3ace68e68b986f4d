/**
 * Counting a collection from its items: once, lazily, for a collection written before counters
 * existed, and on demand by the operator's recount. The only place that reads a whole collection.
 *
 * Safe beside live traffic: the count and a new generation of blocks are built aside, then swapped in
 * by one conditional write that holds only if no create or delete moved the counter (`changes`) and
 * no other recount swapped first (`generation`). Otherwise the new blocks are dropped and it starts
 * again. Creates and deletes name the generation they moved, so none lands in a generation being retired.
 */
import { BatchWriteCommand, paginateQuery, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoTable } from './table';
import { collectionBlockPrefix, keys } from './keys';
import { prefixQuery } from './pagination';
import { BLOCK_SIZE, COLLECTIONS, counterOf, type Block, type CollectionRef, type CounterState } from './collection-state';

const MAX_ATTEMPTS = 6;
const BATCH = 25;

export async function countCollection(table: DynamoTable, ref: CollectionRef, options: { force?: boolean } = {}): Promise<CounterState> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await counterOf(table, ref);
    if (before.seeded && !options.force) return before;
    const ids = await idsOf(table, ref);
    const blocks = COLLECTIONS[ref.collection].paged ? cutIntoBlocks(ids) : [];
    const generation = Math.max(before.generation + 1, Date.now() * 1000 + Math.floor(Math.random() * 1000));
    await writeBlocks(table, ref, generation, blocks);
    const seeded: CounterState = {
      seeded: true,
      count: ids.length,
      generation,
      lastStart: blocks.at(-1)?.start ?? 0,
      lastCount: blocks.at(-1)?.count ?? 0,
      maxId: Math.max(before.maxId, ids.at(-1) ?? 0),
      changes: before.changes,
    };
    if (await swapIn(table, ref, before, seeded)) {
      if (before.generation) await removeBlocks(table, ref, before.generation);
      return seeded;
    }
    await removeBlocks(table, ref, generation);
  }
  throw new Error(`could not count ${ref.collection} of account ${ref.accountId}: it kept changing`);
}

/** Consecutive runs of BLOCK_SIZE ids; the first block starts at 1 so that every id has a block. */
function cutIntoBlocks(ascendingIds: number[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < ascendingIds.length; i += BLOCK_SIZE) {
    blocks.push({ start: i === 0 ? 1 : ascendingIds[i]!, count: Math.min(BLOCK_SIZE, ascendingIds.length - i) });
  }
  return blocks;
}

async function idsOf(table: DynamoTable, ref: CollectionRef): Promise<number[]> {
  const prefix = COLLECTIONS[ref.collection].prefix;
  const ids: number[] = [];
  const query = { ...prefixQuery(table, keys.accountPartition(ref.accountId), prefix), ProjectionExpression: 'sk', ConsistentRead: true };
  for await (const out of paginateQuery({ client: table.client }, query)) {
    for (const item of out.Items ?? []) ids.push(Number((item.sk as string).slice(prefix.length)));
  }
  return ids;
}

async function swapIn(table: DynamoTable, ref: CollectionRef, before: CounterState, seeded: CounterState): Promise<boolean> {
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.collectionCounter(ref.accountId, ref.collection),
        UpdateExpression:
          'SET seeded = :true, generation = :generation, #count = :count, last_start = :last_start, last_count = :last_count, max_id = :max_id, #type = :type',
        ConditionExpression:
          (before.generation ? 'generation = :before_generation' : 'attribute_not_exists(generation)') +
          (before.changes ? ' AND changes = :before_changes' : ' AND attribute_not_exists(changes)'),
        ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
        ExpressionAttributeValues: {
          ':true': true,
          ':generation': seeded.generation,
          ':count': seeded.count,
          ':last_start': seeded.lastStart,
          ':last_count': seeded.lastCount,
          ':max_id': seeded.maxId,
          ':type': 'collection_counter',
          ...(before.generation ? { ':before_generation': before.generation } : {}),
          ...(before.changes ? { ':before_changes': before.changes } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

async function writeBlocks(table: DynamoTable, ref: CollectionRef, generation: number, blocks: Block[]): Promise<void> {
  await batchWrite(
    table,
    blocks.map((block) => ({
      PutRequest: {
        Item: { ...keys.collectionBlock(ref.accountId, ref.collection, generation, block.start), type: 'collection_block', ...block },
      },
    })),
  );
}

async function removeBlocks(table: DynamoTable, ref: CollectionRef, generation: number): Promise<void> {
  const query: QueryCommandInput = {
    ...prefixQuery(table, keys.accountPartition(ref.accountId), collectionBlockPrefix(ref.collection, generation)),
    ProjectionExpression: 'pk, sk',
  };
  for await (const out of paginateQuery({ client: table.client }, query)) {
    await batchWrite(table, (out.Items ?? []).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })));
  }
}

type WriteRequest = { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } };

async function batchWrite(table: DynamoTable, requests: WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH) {
    let pending = requests.slice(i, i + BATCH);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('DynamoDB kept leaving block writes unprocessed');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending } }));
      pending = (out.UnprocessedItems?.[table.name] ?? []) as WriteRequest[];
    }
  }
}
