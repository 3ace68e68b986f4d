import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { uploadOperations } from '#api/uploads';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof uploadOperations>>) => createApiHandler(uploadOperations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES) })));
