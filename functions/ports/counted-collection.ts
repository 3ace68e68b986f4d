/**
 * What an account's counted collections (products, videos, posts, avatars, music) answer alike: each
 * store's port extends the form its collection is listed in and adds its own id and updates.
 */

/** One page, newest first, with the collection's total. */
export interface CountedPage<T> {
  items: T[];
  total: number;
}

/** Listed a page at a time, with the account's count (functions/adapters/dynamodb/collection-counter.ts). */
export interface PagedCollection<T> {
  get(accountId: number, id: number): Promise<T | undefined>;
  /** One page, newest first, with the account's count. */
  list(accountId: number, page: number, perPage: number): Promise<CountedPage<T>>;
}

/** Listed whole, so capped per account. */
export interface CappedCollection<T> {
  /** Refuses with the collection's "full" error when the account already has `cap`, however many creates race. */
  create(record: T, cap: number): Promise<void>;
  /** The records counted against the cap. */
  count(accountId: number): Promise<number>;
  get(accountId: number, id: number): Promise<T | undefined>;
  /** The whole set, newest first. */
  list(accountId: number): Promise<T[]>;
  /** The deleted record (its files are the caller's to remove), or undefined when there was none. */
  delete(accountId: number, id: number): Promise<T | undefined>;
}
