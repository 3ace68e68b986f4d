import { createApiHandler } from '#http/api-handler';
import { hookOperations } from '#api/hooks';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { SkiaCaptionImages } from '#adapters/media/skia-caption-images';
import { withParts } from '#wiring/not-bundled';
import { hookEngines } from '#adapters/engines/hook-engine';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ products: DynamoProductStore, accounts: DynamoAccountStore, jobs: DynamoJobStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(hookOperations, onlyStores(dependencies, STORES));

export const handler = createHandler(withParts(lambdaApiDependencies(STORES), (base) => ({ engines: { ...base.engines, ...hookEngines() }, captionImages: new SkiaCaptionImages() })));
