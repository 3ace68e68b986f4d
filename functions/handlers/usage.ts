import { createApiHandler } from '#http/api-handler';
import { usageOperations } from '#api/usage';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore, ledger: DynamoAllowanceLedger, library: DynamoLibraryUsage, avatars: DynamoAvatarStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(usageOperations, onlyStores(dependencies, STORES));

export const handler = createHandler(lambdaApiDependencies(STORES));
