/**
 * An account's collections (products, videos, posts, avatars) keep their size in a counter item that
 * moves in the same transaction as every create and delete, so `meta.total` and caps are one read,
 * exact under concurrency, whatever the collection's size.
 *
 * Paged collections also keep blocks: the id range is cut into consecutive blocks of about
 * BLOCK_SIZE items, each an item holding its count, moved in the same transaction too. A deep page
 * adds the block counts from the nearer end of the list instead of reading every earlier item
 * (collection-pages.ts). A block's range never changes once items are in it: a new block opens only
 * above every id ever stored (`max_id`), and the first block starts at id 1, so an id allocated
 * before a block opened but written after it still falls into a block that exists.
 *
 * A collection written before counters existed has no counter: its first create or delete counts it
 * once (`seedCollection`); lists of a never-seeded collection count the old way until then. The
 * operator's recount (`npm run cli -- counters recount`) runs the same seeding over a live collection:
 * it builds a new generation of blocks and swaps it in only if no create or delete moved the counter
 * meanwhile (`changes`), otherwise it starts again.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CollectionCounters } from '#ports/collection-counters';
import type { DynamoTable } from './table';
import { collectionBlockPrefix, keys, padId } from './keys';
import { transact, type TransactItem, type TransactOutcome } from './transactions';
import { BLOCK_SIZE, COLLECTIONS, counterOf, type CollectionRef, type CounterState } from './collection-state';
import { countCollection } from './collection-seed';
import { collectionPage } from './collection-pages';

const MAX_ATTEMPTS = 8;

/** A collection is full when a create would pass `limit`; `refusal` is the error the caller answers. */
export interface Cap {
  limit: number;
  refusal: () => Error;
}

type Placement = { start: number; last: boolean; opens?: boolean };

/** The counted collections of the one table: every create and delete of their items goes through here. */
export class DynamoCollections implements CollectionCounters {
  constructor(private readonly table: DynamoTable) {}

  /**
   * Writes `writes` (first the Put of the new item, conditioned on its absence; then anything that
   * must change with it) with the counter and its block, all or nothing. When one of `writes` refuses,
   * nothing is written and its index comes back. With a cap, a full collection throws the cap's refusal.
   */
  async create(ref: CollectionRef, id: number, writes: TransactItem[], cap?: Cap): Promise<TransactOutcome> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const state = await this.seededCounter(ref);
      if (cap && state.count >= cap.limit) throw cap.refusal();
      const outcome = await transact([...writes, ...(await this.moveForCreate(ref, state, id, cap?.limit))], this.table.client);
      if (outcome.written) return outcome;
      const own = outcome.failed.filter((index) => index < writes.length);
      if (own.length > 0) return { written: false, failed: own };
      // The counter moved under us (a block opened, a recount, the cap reached): read it again.
    }
    throw new Error(`could not record ${ref.collection} item ${id}: the counter kept moving`);
  }

  /** create for a lone new item: it existing already is a bug (ids are never reused). */
  async createOne(ref: CollectionRef, id: number, put: TransactItem, cap?: Cap): Promise<void> {
    const outcome = await this.create(ref, id, [put], cap);
    if (!outcome.written) throw new Error(`${ref.collection} item ${id} of account ${ref.accountId} already exists`);
  }

  /**
   * Deletes with `remove` (a Delete conditioned on the item existing) and moves the counter and block
   * with it. False when the item was not there (or a concurrent delete won).
   */
  async delete(ref: CollectionRef, id: number, remove: TransactItem): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const state = await this.seededCounter(ref);
      const block = COLLECTIONS[ref.collection].paged ? await this.blockOf(ref, state, id) : undefined;
      const outcome = await transact([remove, ...counterMoves(this.table.name, ref, state, { delta: -1, block })], this.table.client);
      if (outcome.written) return true;
      if (outcome.failed.includes(0)) return false;
    }
    throw new Error(`could not delete ${ref.collection} item ${id}: the counter kept moving`);
  }

  /** A page, newest first, with the collection's total (collection-pages.ts). */
  page(ref: CollectionRef, page: number, perPage: number) {
    return collectionPage(this.table, ref, page, perPage);
  }

  counter(ref: CollectionRef): Promise<CounterState> {
    return counterOf(this.table, ref);
  }

  /** Counts the collection from its items and swaps the count in (collection-seed.ts); `force` recounts a counted one. */
  count(ref: CollectionRef, options: { force?: boolean } = {}): Promise<CounterState> {
    return countCollection(this.table, ref, options);
  }

  async storedCount(ref: CollectionRef): Promise<number | null> {
    const state = await this.counter(ref);
    return state.seeded ? state.count : null;
  }

  async recount(ref: CollectionRef): Promise<number> {
    return (await this.count(ref, { force: true })).count;
  }

  /** The counter, counted first if this collection never was. */
  private async seededCounter(ref: CollectionRef): Promise<CounterState> {
    const state = await this.counter(ref);
    return state.seeded ? state : this.count(ref);
  }

  private async moveForCreate(ref: CollectionRef, state: CounterState, id: number, cap?: number): Promise<TransactItem[]> {
    const moves = (move: Parameters<typeof counterMoves>[3]) => counterMoves(this.table.name, ref, state, move);
    if (!COLLECTIONS[ref.collection].paged) return moves({ delta: 1, cap });
    if (id > state.maxId) {
      const opens = state.lastStart === 0 || state.lastCount >= BLOCK_SIZE;
      // The first block starts at 1: an older id written late still has a block to fall into.
      const start = opens ? (state.lastStart === 0 ? 1 : id) : state.lastStart;
      return moves({ delta: 1, cap, newMax: id, block: { start, last: true, opens } });
    }
    // An id allocated before a newer one was stored: it belongs to the block whose range holds it.
    return moves({ delta: 1, cap, block: await this.blockOf(ref, state, id) });
  }

  /** The block holding `id`: the newest one, or (rarely) the one with the highest start at or below it. */
  private async blockOf(ref: CollectionRef, state: CounterState, id: number): Promise<Placement> {
    if (id >= state.lastStart) return { start: state.lastStart, last: true };
    const prefix = collectionBlockPrefix(ref.collection, state.generation);
    const out = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': keys.accountPartition(ref.accountId), ':low': prefix, ':high': `${prefix}${padId(id)}` },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const start = Number(out.Items?.[0]?.start ?? 1);
    return { start, last: false };
  }
}

/**
 * The counter's move, conditioned on the state it was computed from (same generation, same newest
 * block, max id still below a new one), and the block's. A failed condition means: read again.
 */
function counterMoves(
  tableName: string,
  ref: CollectionRef,
  state: CounterState,
  move: { delta: 1 | -1; cap?: number; newMax?: number; block?: Placement },
): TransactItem[] {
  const adds = ['#count :delta', 'changes :one'];
  const sets = ['#type = :type'];
  const conditions = ['generation = :generation'];
  const values: Record<string, unknown> = { ':delta': move.delta, ':one': 1, ':type': 'collection_counter', ':generation': state.generation };
  if (move.cap !== undefined) {
    conditions.push('#count < :cap');
    values[':cap'] = move.cap;
  }
  if (move.newMax !== undefined) {
    conditions.push('max_id < :new_max');
    sets.push('max_id = :new_max');
    values[':new_max'] = move.newMax;
  }
  const block = move.block;
  if (block?.last) {
    conditions.push('last_start = :last_start');
    values[':last_start'] = state.lastStart;
    if (block.opens) {
      sets.push('last_start = :start', 'last_count = :one');
      values[':start'] = block.start;
    } else {
      adds.push('last_count :delta');
    }
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName,
        Key: keys.collectionCounter(ref.accountId, ref.collection),
        UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (block?.opens) {
    items.push({
      Put: {
        TableName: tableName,
        Item: { ...keys.collectionBlock(ref.accountId, ref.collection, state.generation, block.start), type: 'collection_block', start: block.start, count: 1 },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  } else if (block) {
    items.push({
      Update: {
        TableName: tableName,
        Key: keys.collectionBlock(ref.accountId, ref.collection, state.generation, block.start),
        UpdateExpression: 'ADD #count :delta',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':delta': move.delta },
      },
    });
  }
  return items;
}
