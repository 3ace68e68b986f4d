import { createApiHandler } from '#http/api-handler';
import { uploadOperations } from '#api/uploads';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(uploadOperations, onlyStores(dependencies, STORES));

export const handler = createHandler(lambdaApiDependencies(STORES));
