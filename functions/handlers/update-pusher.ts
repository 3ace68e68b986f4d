/**
 * Runs on the table's stream (lib/cloud/live-updates.ts, filtered to jobs, products and avatars):
 * pushes each changed record to the sockets that follow it.
 */
import { changedRecordsOf } from '#adapters/dynamodb/stream-records';
import { ManagementApiPusher } from '#adapters/sockets/management-api-pusher';
import { environment, updatesPusherSettings } from '#functions/config';
import { withLambdaContext } from '#functions/logger';
import type { NeedsOf, PortSource } from '#ports/ports';
import type { UpdatePusher } from '#ports/update-sockets';
import { pushUpdates } from '#use-cases/push-updates';
import { lambdaPorts, lambdaSettings } from '#wiring/lambda';
import type { StoreClasses } from '#wiring/table-stores';
import { DynamoUpdateSocketStore } from '#adapters/dynamodb/update-sockets';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';

const STORES = { updateSockets: DynamoUpdateSocketStore, jobs: DynamoJobStore, products: DynamoProductStore, avatars: DynamoAvatarStore } as const satisfies StoreClasses;

/** A failure (not a gone connection) fails the batch, which the stream retries: updates are whole records, so a repeat is harmless. */
export const createHandler = (ports: PortSource<NeedsOf<typeof pushUpdates>>, pusher: () => UpdatePusher) => async (event: unknown) => {
  const changes = changedRecordsOf(event);
  const sent = await pushUpdates(ports(), pusher(), changes);
  return { changed: changes.length, sent };
};

let management: ManagementApiPusher | undefined;
const managementApi = () => (management ??= new ManagementApiPusher({ ...updatesPusherSettings(environment()), region: lambdaSettings().region }));

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES) })), managementApi));
