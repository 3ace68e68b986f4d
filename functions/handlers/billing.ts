import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { billingOperations } from '#api/billing';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { billingOnAws } from '#wiring/billing-on-aws';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof billingOperations>>) => createApiHandler(billingOperations, ports);

export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), ...billingOnAws() })));
