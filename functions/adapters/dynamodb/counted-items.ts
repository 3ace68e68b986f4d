/**
 * The records of one counted collection (products, videos, posts, avatars, music) in their account's
 * partition: keyed by the collection's prefix and padded id, created and deleted with the counter
 * (collection-counter.ts), read back through the store's own mapping. Each store extends the form its
 * collection is listed in (PagedItems or CappedItems); what its port does not offer stays protected.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CollectionName } from '#domain/collections';
import type { CappedCollection, CountedPage, PagedCollection } from '#ports/counted-collection';
import type { DynamoTable } from './table';
import { keys, padId } from './keys';
import { COLLECTIONS, type CollectionRef } from './collection-state';
import { DynamoCollections } from './collection-counter';
import { queryAll } from './pagination';
import type { TransactItem } from './transactions';

export interface CountedKind<T> {
  collection: CollectionName;
  /** The item's `type` attribute. */
  type: string;
  fromItem: (item: Record<string, unknown>) => T;
  /** Sparse index attributes a new record is written with (a processing index), if any. */
  indexOf?: (record: T) => Record<string, unknown>;
}

type CountedRecord = { id: number; account_id: number };

export abstract class CountedItems<T extends CountedRecord> {
  protected readonly counters: DynamoCollections;

  protected constructor(
    protected readonly table: DynamoTable,
    protected readonly kind: CountedKind<T>,
  ) {
    this.counters = new DynamoCollections(table);
  }

  async get(accountId: number, id: number): Promise<T | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: this.key(accountId, id), ConsistentRead: true }));
    return out.Item ? this.kind.fromItem(out.Item) : undefined;
  }

  protected ref(accountId: number): CollectionRef {
    return { accountId, collection: this.kind.collection };
  }

  protected key(accountId: number, id: number): { pk: string; sk: string } {
    return { pk: keys.accountPartition(accountId), sk: `${COLLECTIONS[this.kind.collection].prefix}${padId(id)}` };
  }

  /** The Put of a new record, refused when its key is taken, with the kind's index attributes. */
  protected put(record: T): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: { ...this.key(record.account_id, record.id), type: this.kind.type, ...this.kind.indexOf?.(record), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** Writes a new record and counts it; with a cap, a full collection throws the cap's refusal. */
  protected createCounted(record: T, cap?: { limit: number; refusal: () => Error }): Promise<void> {
    return this.counters.createOne(this.ref(record.account_id), record.id, this.put(record), cap);
  }

  /** The deleted record, or undefined when there was none (or a concurrent delete won). */
  protected async deleteCounted(accountId: number, id: number): Promise<T | undefined> {
    const record = await this.get(accountId, id);
    if (!record) return undefined;
    const removed = await this.counters.delete(this.ref(accountId), id, {
      Delete: { TableName: this.table.name, Key: this.key(accountId, id), ConditionExpression: 'attribute_exists(pk)' },
    });
    return removed ? record : undefined;
  }
}

/** A collection listed a page at a time (products, videos, posts), newest first, with its total. */
export abstract class PagedItems<T extends CountedRecord> extends CountedItems<T> implements PagedCollection<T> {
  async list(accountId: number, page: number, perPage: number): Promise<CountedPage<T>> {
    const slice = await this.counters.page(this.ref(accountId), page, perPage);
    return { items: slice.items.map(this.kind.fromItem), total: slice.total };
  }
}

/** A collection listed whole (avatars, music), so capped: `full(cap)` is the refusal of a create past the cap. */
export abstract class CappedItems<T extends CountedRecord> extends CountedItems<T> implements CappedCollection<T> {
  protected constructor(
    table: DynamoTable,
    kind: CountedKind<T>,
    private readonly full: (cap: number) => Error,
  ) {
    super(table, kind);
  }

  /** The counter that admits a record moves in the same transaction as it, so concurrent creates never pass the cap. */
  create(record: T, cap: number): Promise<void> {
    return this.createCounted(record, { limit: cap, refusal: () => this.full(cap) });
  }

  /** One read; a collection never counted is counted once first. */
  async count(accountId: number): Promise<number> {
    return (await this.counters.count(this.ref(accountId))).count;
  }

  /** The whole collection, newest first. */
  async list(accountId: number): Promise<T[]> {
    const items = await queryAll(this.table, keys.accountPartition(accountId), COLLECTIONS[this.kind.collection].prefix, { newestFirst: true });
    return items.map(this.kind.fromItem);
  }

  delete(accountId: number, id: number): Promise<T | undefined> {
    return this.deleteCounted(accountId, id);
  }
}
