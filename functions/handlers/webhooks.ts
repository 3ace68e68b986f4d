import { createApiHandler } from '#http/api-handler';
import { webhookOperations } from '#api/webhooks';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { withParts } from '#wiring/not-bundled';
import { DynamoWebhookStore } from '#adapters/dynamodb/webhooks';
import { HttpWebhookReceivers } from '#adapters/webhooks/http-receivers';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ webhooks: DynamoWebhookStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(webhookOperations, onlyStores(dependencies, STORES));

// A URL is vetted (resolved, its addresses judged) when it is set: only this function and the delivery worker carry the sender.
export const handler = createHandler(withParts(lambdaApiDependencies(STORES), () => ({ webhookReceivers: new HttpWebhookReceivers({ allowLoopback: false }) })));
