/**
 * Which of the table's stores an API function carries. Each API handler module names its stores once,
 * as a record of port → DynamoDB class: on AWS the function bundles and builds only those (the store
 * classes are most of a small function's bundle), and in every runtime its operations see only those
 * (the others throw), so the local stack and the e2e tests prove each list complete before a deploy.
 */
import type { Ports, PortSource } from '#ports/ports';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { TABLE_STORE_PORTS, type TableStorePort } from '#adapters/dynamodb/stores';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { DynamoSessionStore } from '#adapters/dynamodb/sessions';
import { DynamoIdempotentAnswers } from '#adapters/dynamodb/idempotent-answers';

export type StoreClasses = { readonly [K in TableStorePort]?: new (table: DynamoTable) => Ports[K] };

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
export const apiStores = (operations: StoreClasses): StoreClasses => ({ ...AUTH_STORES, ...operations });

export function buildStores(table: DynamoTable, classes: StoreClasses): Partial<Ports> {
  return Object.fromEntries(Object.entries(classes).map(([port, Store]) => [port, new Store(table)]));
}

/** A store this function does not carry: any use of it is a wiring bug, said as such. */
function storeNotBundled(port: string): never {
  return new Proxy(
    {},
    {
      get(_, property) {
        // Promise resolution and inspection look for these; only a real use should throw.
        if (property === 'then' || typeof property === 'symbol') return undefined;
        throw new Error(`the ${port} store is not bundled with this function: add it to its handler module's stores`);
      },
    },
  ) as never;
}

export function storesNotBundled(except: StoreClasses = {}): Partial<Ports> {
  return Object.fromEntries(TABLE_STORE_PORTS.filter((port) => !(port in except)).map((port) => [port, storeNotBundled(port)]));
}

/** `source` with only the named stores: what the function sees is what its Lambda bundles. */
export function onlyStores(source: PortSource, classes: StoreClasses): PortSource {
  let built: Ports | undefined;
  return () => (built ??= { ...source(), ...storesNotBundled(classes) });
}
