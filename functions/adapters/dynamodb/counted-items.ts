/**
 * The records of one counted collection (products, videos, posts, avatars, music) in their account's
 * partition: keyed by the collection's prefix and padded id, created and deleted with the counter
 * (collection-counter.ts), read back through the store's own mapping.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CollectionName } from '#domain/collections';
import type { DynamoTable } from './table';
import { keys, padId } from './keys';
import { COLLECTIONS, type CollectionRef } from './collection-state';
import { DynamoCollections, type Cap } from './collection-counter';
import { queryAll, type PageSlice } from './pagination';
import type { TransactItem } from './transactions';

export interface CountedKind<T> {
  collection: CollectionName;
  /** The item's `type` attribute. */
  type: string;
  fromItem: (item: Record<string, unknown>) => T;
}

export class CountedItems<T extends { id: number; account_id: number }> {
  readonly counters: DynamoCollections;

  constructor(
    private readonly table: DynamoTable,
    private readonly kind: CountedKind<T>,
  ) {
    this.counters = new DynamoCollections(table);
  }

  ref(accountId: number): CollectionRef {
    return { accountId, collection: this.kind.collection };
  }

  key(accountId: number, id: number): { pk: string; sk: string } {
    return { pk: keys.accountPartition(accountId), sk: `${COLLECTIONS[this.kind.collection].prefix}${padId(id)}` };
  }

  /** The Put of a new record, refused when its key is taken; `index` adds sparse index attributes. */
  put(record: T, index: Record<string, unknown> = {}): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: { ...this.key(record.account_id, record.id), type: this.kind.type, ...index, ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** Writes a new record and counts it; with a cap, a full collection throws the cap's refusal. */
  create(record: T, options: { index?: Record<string, unknown>; cap?: Cap } = {}): Promise<void> {
    return this.counters.createOne(this.ref(record.account_id), record.id, this.put(record, options.index), options.cap);
  }

  async get(accountId: number, id: number): Promise<T | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: this.key(accountId, id), ConsistentRead: true }));
    return out.Item ? this.kind.fromItem(out.Item) : undefined;
  }

  /** The deleted record, or undefined when there was none (or a concurrent delete won). */
  async delete(accountId: number, id: number): Promise<T | undefined> {
    const record = await this.get(accountId, id);
    if (!record) return undefined;
    const removed = await this.counters.delete(this.ref(accountId), id, {
      Delete: { TableName: this.table.name, Key: this.key(accountId, id), ConditionExpression: 'attribute_exists(pk)' },
    });
    return removed ? record : undefined;
  }

  /** One page, newest first, with the collection's total. */
  async page(accountId: number, page: number, perPage: number): Promise<PageSlice<T>> {
    const slice = await this.counters.page(this.ref(accountId), page, perPage);
    return { items: slice.items.map(this.kind.fromItem), total: slice.total };
  }

  /** The whole collection, newest first (for the capped ones, which are listed whole). */
  async all(accountId: number): Promise<T[]> {
    return (await queryAll(this.table, keys.accountPartition(accountId), COLLECTIONS[this.kind.collection].prefix, { newestFirst: true })).map(this.kind.fromItem);
  }

  /** One read; a collection never counted is counted once first. */
  async count(accountId: number): Promise<number> {
    return (await this.counters.count(this.ref(accountId))).count;
  }
}
