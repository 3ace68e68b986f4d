import { createApiHandler } from '#http/api-handler';
import { billingOperations } from '#api/billing';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { withParts } from '#wiring/not-bundled';
import { billingOnAws } from '#wiring/billing-on-aws';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(billingOperations, onlyStores(dependencies, STORES));

export const handler = createHandler(withParts(lambdaApiDependencies(STORES), billingOnAws));
