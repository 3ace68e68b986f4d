import { createApiHandler } from '#http/api-handler';
import { reactionOperations } from '#api/reactions';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoReactionStore } from '#adapters/dynamodb/reactions';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ reactions: DynamoReactionStore, jobs: DynamoJobStore, accounts: DynamoAccountStore, library: DynamoLibraryUsage });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(reactionOperations, onlyStores(dependencies, STORES));

export const handler = createHandler(lambdaApiDependencies(STORES));
