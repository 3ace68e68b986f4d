/**
 * The operator's repair of collection counters (`npm run cli -- counters recount`): counts each
 * collection from its items and swaps the count and a new set of page blocks in, safely beside live
 * traffic (functions/adapters/dynamodb/collection-seed.ts). The only full read of a collection, so it
 * is never on a request's path; run it after a restore, or with --all after first deploying counters.
 */
import { lastAllocatedId } from '#adapters/dynamodb/ids';
import type { CollectionName } from '#domain/collections';
import type { AdminStores } from './target';

export interface Recounted {
  account: number;
  /** Per collection: what the counter said (null: never counted) and the count now. */
  collections: Record<string, { before: number | null; after: number }>;
}

export async function recountAccount(stores: Pick<AdminStores, 'collections'>, accountId: number, collections: readonly CollectionName[]): Promise<Recounted> {
  const result: Recounted = { account: accountId, collections: {} };
  for (const collection of collections) {
    const ref = { accountId, collection };
    const before = await stores.collections.storedCount(ref);
    const after = await stores.collections.recount(ref);
    result.collections[collection] = { before, after };
  }
  return result;
}

/** Every account in id order (ids are dense from 1; deleted or missing ones are passed over). */
export async function recountAll(stores: Pick<AdminStores, 'table' | 'accounts' | 'collections'>, collections: readonly CollectionName[]): Promise<Recounted[]> {
  const results: Recounted[] = [];
  const last = await lastAllocatedId(stores.table, 'account');
  for (let accountId = 1; accountId <= last; accountId++) {
    if (await stores.accounts.get(accountId)) results.push(await recountAccount(stores, accountId, collections));
  }
  return results;
}
