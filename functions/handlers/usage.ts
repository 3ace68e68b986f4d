import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { usageOperations } from '#api/usage';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore, ledger: DynamoAllowanceLedger, library: DynamoLibraryUsage, avatars: DynamoAvatarStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof usageOperations>>) => createApiHandler(usageOperations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES) })));
