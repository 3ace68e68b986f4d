import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { authOperations } from '#api/auth';
import { apiKeyOperations } from '#api/api-keys';
import { liveUpdateOperations } from '#api/live-updates';
import { DynamoUpdateSocketStore } from '#adapters/dynamodb/update-sockets';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoUserStore } from '#adapters/dynamodb/users';
import { mailOnAws } from '#wiring/mail-on-aws';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore, users: DynamoUserStore, updateSockets: DynamoUpdateSocketStore });

const operations = { ...authOperations, ...apiKeyOperations, ...liveUpdateOperations };

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof operations>>) => createApiHandler(operations, ports);

// Password-reset links are mailed from here: only this function carries the SES adapter.
export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), ...mailOnAws() })));
