import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { reactionOperations } from '#api/reactions';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoReactionStore } from '#adapters/dynamodb/reactions';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ reactions: DynamoReactionStore, jobs: DynamoJobStore, accounts: DynamoAccountStore, library: DynamoLibraryUsage });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof reactionOperations>>) => createApiHandler(reactionOperations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES) })));
