/** What a collection's counter item says, and which collections have one (collection-counter.ts). */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CollectionName, CollectionRef } from '#domain/collections';
import type { DynamoTable } from './table';
import { keys } from './keys';

export type { CollectionRef } from '#domain/collections';

/** Where each collection's items sit in the account's partition, and whether it is paged by blocks. */
export const COLLECTIONS = {
  products: { prefix: keys.productPrefix, paged: true },
  videos: { prefix: keys.videoPrefix, paged: true },
  posts: { prefix: 'POST#', paged: true },
  avatars: { prefix: keys.avatarPrefix, paged: false },
  music: { prefix: keys.musicPrefix, paged: false },
} as const satisfies Record<CollectionName, { prefix: string; paged: boolean }>;

/**
 * Items per block. A page starting inside a block reads up to BLOCK_SIZE - 1 items it skips; a page
 * in the middle of n items reads up to n / (2 × BLOCK_SIZE) block counts (about 80 bytes each).
 */
export const BLOCK_SIZE = 50;

export interface CounterState {
  seeded: boolean;
  count: number;
  /** Which set of blocks is current; a recount writes a new one and swaps it in. */
  generation: number;
  /** The newest block's first id (0: no block yet) and its item count. */
  lastStart: number;
  lastCount: number;
  /** The highest id ever stored: a block may only open above it. */
  maxId: number;
  /** Creates and deletes since the counter was made; a recount commits only if it has not moved. */
  changes: number;
}

export interface Block {
  start: number;
  count: number;
}

export async function counterOf(table: DynamoTable, ref: CollectionRef): Promise<CounterState> {
  const out = await table.client.send(
    new GetCommand({ TableName: table.name, Key: keys.collectionCounter(ref.accountId, ref.collection), ConsistentRead: true }),
  );
  const item = out.Item ?? {};
  return {
    seeded: item.seeded === true,
    count: Math.max(0, Number(item.count ?? 0)),
    generation: Number(item.generation ?? 0),
    lastStart: Number(item.last_start ?? 0),
    lastCount: Number(item.last_count ?? 0),
    maxId: Number(item.max_id ?? 0),
    changes: Number(item.changes ?? 0),
  };
}
