import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { hookOperations } from '#api/hooks';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { SkiaCaptionImages } from '#adapters/media/skia-caption-images';
import { hookEngines } from '#adapters/engines/hook-engine';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ products: DynamoProductStore, accounts: DynamoAccountStore, jobs: DynamoJobStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof hookOperations>>) => createApiHandler(hookOperations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), engines: hookEngines(), captionImages: new SkiaCaptionImages() })));
