import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { socialConnectionOperations } from '#api/social-connections';
import { socialPostOperations } from '#api/social-posts';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { DynamoPostStore } from '#adapters/dynamodb/posts';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { socialOnAws } from '#wiring/social-on-aws';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ connections: DynamoConnectionStore, posts: DynamoPostStore, videos: DynamoVideoLibrary });

const operations = { ...socialConnectionOperations, ...socialPostOperations };

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof operations>>) => createApiHandler(operations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), ...socialOnAws() })));
