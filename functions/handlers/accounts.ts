import { createApiHandler } from '#http/api-handler';
import { authOperations } from '#api/auth';
import { apiKeyOperations } from '#api/api-keys';
import type { DependencySource } from '#ports/dependencies';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoUserStore } from '#adapters/dynamodb/users';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore, users: DynamoUserStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: DependencySource) =>
  createApiHandler({ ...authOperations, ...apiKeyOperations }, onlyStores(dependencies, STORES));

export const handler = createHandler(lambdaApiDependencies(STORES));
