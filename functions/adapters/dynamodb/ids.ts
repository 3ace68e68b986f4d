import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { shardOf } from './shards';

/** Positive integer ids from an atomic counter per entity type: short, ordered, never reused. */
export async function allocateId(table: DynamoTable, entity: string): Promise<number> {
  return (await takeFromCounter(table, entity, 1)).top;
}

/** The last id handed out for `entity` (0 before the first): every id of it lies in 1..this. */
export async function lastAllocatedId(table: DynamoTable, entity: string): Promise<number> {
  const out = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.counter(entity), ConsistentRead: true }));
  return Number(out.Item?.value ?? 0);
}

/**
 * Ids taken from the entity's counter a block at a time: its one item takes a write per block, not
 * per id. 100 ids a block: at 1,000 ids a second the counter takes 10 writes a second.
 */
export const ID_BLOCK = 100;

/**
 * Ids for records made once per job or more (jobs, videos, batches, saved reactions). One counter item
 * for all of them would take a write per record: a partition's 1,000 writes a second would cap the
 * service's jobs a second. Instead each of INDEX_SHARDS shard items hands out the ids of a block it
 * took from the entity's counter (allocateId's, so ids stay unique with every id handed out before),
 * and an account always draws from the same shard, so its ids still rise in the order its records
 * were made (its lists are newest first by id). Ids of different accounts interleave by block.
 */
export async function allocateShardedId(table: DynamoTable, entity: string, accountId: number): Promise<number> {
  const shard = keys.counter(`${entity}#${String(shardOf(String(accountId))).padStart(2, '0')}`);
  for (;;) {
    const next = await nextInBlock(table, shard);
    if (next !== undefined) return next;
    const { top } = await takeFromCounter(table, entity, ID_BLOCK);
    const first = top - ID_BLOCK + 1;
    // Another caller may have refilled the shard meanwhile: then this block stays unused (ids are never reused, a gap is harmless).
    if (await startBlock(table, shard, first, top)) return first;
  }
}


async function takeFromCounter(table: DynamoTable, entity: string, count: number): Promise<{ top: number }> {
  const out = await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.counter(entity),
      UpdateExpression: 'ADD #v :count',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return { top: Number(out.Attributes?.value) };
}

/** The shard's next id, or undefined when its block is used up (or it has none yet). */
async function nextInBlock(table: DynamoTable, shard: { pk: string; sk: string }): Promise<number | undefined> {
  try {
    const out = await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: shard,
        UpdateExpression: 'SET #v = #v + :one',
        ConditionExpression: '#v < #end',
        ExpressionAttributeNames: { '#v': 'value', '#end': 'block_end' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.value);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Gives the shard the block first..top, `first` already handed out; false when it was refilled meanwhile. */
async function startBlock(table: DynamoTable, shard: { pk: string; sk: string }, first: number, top: number): Promise<boolean> {
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: shard,
        UpdateExpression: 'SET #v = :first, #end = :top',
        ConditionExpression: 'attribute_not_exists(#v) OR #v >= #end',
        ExpressionAttributeNames: { '#v': 'value', '#end': 'block_end' },
        ExpressionAttributeValues: { ':first': first, ':top': top },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
