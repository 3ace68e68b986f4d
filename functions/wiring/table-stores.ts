/**
 * Which of the table's stores a Lambda function carries. Each handler module names its stores once, as
 * a record of port → DynamoDB class: the function bundles and builds only those (the store classes are
 * most of a small function's bundle). Its handler's type says which stores its operations reach, so a
 * store left out of the record is a compile error.
 */
import type { Ports } from '#ports/ports';
import type { DynamoTable } from '#adapters/dynamodb/table';
import type { TableStorePort } from '#adapters/dynamodb/stores';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { DynamoSessionStore } from '#adapters/dynamodb/sessions';
import { DynamoIdempotentAnswers } from '#adapters/dynamodb/idempotent-answers';

export type StoreClasses = { readonly [K in TableStorePort]?: new (table: DynamoTable) => Ports[K] };

/** The stores a record of classes builds, by port. */
export type StoresOf<C extends StoreClasses> = { [K in keyof C]: C[K] extends new (table: DynamoTable) => infer S ? S : never };

/**
 * What every authenticated route may read besides its operation's: the key or the session, the
 * per-account limit, and the Idempotency-Key answers its creating POSTs keep (#http/dispatch).
 */
const AUTH_STORES = {
  apiKeys: DynamoApiKeyStore,
  sessions: DynamoSessionStore,
  rateLimits: DynamoRateLimiter,
  idempotentAnswers: DynamoIdempotentAnswers,
} as const satisfies StoreClasses;

/** An API function's stores: authentication's and its operations'. */
export const apiStores = <C extends StoreClasses>(operations: C): typeof AUTH_STORES & C => ({ ...AUTH_STORES, ...operations });

export function buildStores<C extends StoreClasses>(table: DynamoTable, classes: C): StoresOf<C> {
  return Object.fromEntries(Object.entries(classes).map(([port, Store]) => [port, new Store(table)])) as StoresOf<C>;
}
