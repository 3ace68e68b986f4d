import { createApiHandler } from '#http/api-handler';
import { authOperations } from '#api/auth';
import { apiKeyOperations } from '#api/api-keys';
import { liveUpdateOperations } from '#api/live-updates';
import { DynamoUpdateSocketStore } from '#adapters/dynamodb/update-sockets';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoUserStore } from '#adapters/dynamodb/users';
import { withParts } from '#wiring/not-bundled';
import { mailOnAws } from '#wiring/mail-on-aws';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ accounts: DynamoAccountStore, users: DynamoUserStore, updateSockets: DynamoUpdateSocketStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) =>
  createApiHandler({ ...authOperations, ...apiKeyOperations, ...liveUpdateOperations }, onlyStores(dependencies, STORES));

// Password-reset links are mailed from here: only this function carries the SES adapter.
export const handler = createHandler(withParts(lambdaApiDependencies(STORES), mailOnAws));
