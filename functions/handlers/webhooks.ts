import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { webhookOperations } from '#api/webhooks';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoWebhookStore } from '#adapters/dynamodb/webhooks';
import { HttpWebhookReceivers } from '#adapters/webhooks/http-receivers';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ webhooks: DynamoWebhookStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof webhookOperations>>) => createApiHandler(webhookOperations, ports);

// A URL is vetted (resolved, its addresses judged) when it is set: only this function and the delivery worker carry the sender.
export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), webhookReceivers: new HttpWebhookReceivers({ allowLoopback: false }) })));
