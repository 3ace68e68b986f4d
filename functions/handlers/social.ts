import { createApiHandler } from '#http/api-handler';
import { socialConnectionOperations } from '#api/social-connections';
import { socialPostOperations } from '#api/social-posts';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { DynamoPostStore } from '#adapters/dynamodb/posts';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { withParts } from '#wiring/not-bundled';
import { socialOnAws } from '#wiring/social-on-aws';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ connections: DynamoConnectionStore, posts: DynamoPostStore, videos: DynamoVideoLibrary });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler({ ...socialConnectionOperations, ...socialPostOperations }, onlyStores(dependencies, STORES));

export const handler = createHandler(withParts(lambdaApiDependencies(STORES), socialOnAws));
