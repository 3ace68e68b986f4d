import { createApiHandler } from '#http/api-handler';
import { productOperations } from '#api/products';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { withParts } from '#wiring/not-bundled';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';
import { createLinkedFileDownloader } from '#adapters/reference/direct-media-resolver';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ products: DynamoProductStore, uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(productOperations, onlyStores(dependencies, STORES));

// Uploaded demo videos are judged here (ffprobe), so only this function and the worker bundle the tools; a linked one is fetched here.
// The sample clip is only found here (and copied); the sample-demo worker makes it.
export const handler = createHandler(
  withParts(lambdaApiDependencies(STORES), (base) => ({ demoMedia: new FfmpegDemoMedia(), remoteFiles: createLinkedFileDownloader(), sampleDemo: new BlobSampleDemo(base.blobs) })),
);
