import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { analyticsOperations } from '#api/analytics';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { DynamoAnalyticsCache } from '#adapters/dynamodb/analytics-cache';
import { DynamoPostStore } from '#adapters/dynamodb/posts';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { socialOnAws } from '#wiring/social-on-aws';

/** The table's stores this function's operations use: all it bundles of them (posts, videos, jobs and products name the breakdowns). */
const STORES = apiStores({
  connections: DynamoConnectionStore,
  analytics: DynamoAnalyticsCache,
  posts: DynamoPostStore,
  videos: DynamoVideoLibrary,
  jobs: DynamoJobStore,
  products: DynamoProductStore,
});

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof analyticsOperations>>) => createApiHandler(analyticsOperations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), ...socialOnAws() })));
