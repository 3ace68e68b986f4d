import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { videoJobOperations } from '#api/video-jobs';
import { finishedVideoOperations } from '#api/finished-videos';
import { providerCallbackOperations } from '#api/provider-callbacks';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoJobDurations } from '#adapters/dynamodb/job-durations';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { DynamoReactionStore } from '#adapters/dynamodb/reactions';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoMusicStore } from '#adapters/dynamodb/music';
import { FfprobeMediaInspector } from '#adapters/media/ffprobe-media-inspector';
import { lambdaClipFaces } from '#adapters/lambda/face-check-client';
import { requestReferenceResolver } from '#adapters/reference/reference-resolver';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';

/** The table's stores this function's operations use: all it bundles of them (the ledger: a dry run reads the allowance; music: a job's music_id is checked). */
const STORES = apiStores({
  jobs: DynamoJobStore,
  videos: DynamoVideoLibrary,
  accounts: DynamoAccountStore,
  products: DynamoProductStore,
  avatars: DynamoAvatarStore,
  reactions: DynamoReactionStore,
  music: DynamoMusicStore,
  uploads: DynamoUploadStore,
  ledger: DynamoAllowanceLedger,
  jobDurations: DynamoJobDurations,
});

const operations = { ...finishedVideoOperations, ...videoJobOperations, ...providerCallbackOperations };

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof operations>>) => createApiHandler(operations, ports);

// Reference clips are judged here (ffprobe), so only this function bundles the inspector; a linked one is
// fetched here first, within the request's time. Their face: frames sampled here (ffmpeg), looked at by
// the face-check function (routes.ts: no room for the face runtime beside ffmpeg). A job may name a stock
// avatar: the catalogue is read here, its portraits are drawn elsewhere.
export const handler = createHandler(
  lambdaPorts(({ common, stores }) => ({
    ...common,
    ...stores(STORES),
    media: new FfprobeMediaInspector(),
    faces: lambdaClipFaces(),
    references: requestReferenceResolver(),
    stockAvatars: new BlobStockAvatars(common.blobs),
  })),
);
