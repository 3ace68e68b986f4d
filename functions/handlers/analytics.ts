import { createApiHandler } from '#http/api-handler';
import { analyticsOperations } from '#api/analytics';
import type { DependencySource } from '#ports/dependencies';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { DynamoAnalyticsCache } from '#adapters/dynamodb/analytics-cache';
import { withParts } from '#wiring/not-bundled';
import { socialOnAws } from '#wiring/social-on-aws';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ connections: DynamoConnectionStore, analytics: DynamoAnalyticsCache });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(analyticsOperations, onlyStores(dependencies, STORES));

export const handler = createHandler(withParts(lambdaApiDependencies(STORES), socialOnAws));
