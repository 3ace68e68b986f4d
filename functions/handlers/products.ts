import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { productOperations } from '#api/products';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';
import { createLinkedFileDownloader } from '#adapters/reference/direct-media-resolver';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ products: DynamoProductStore, uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof productOperations>>) => createApiHandler(productOperations, ports);

// Uploaded demo videos are judged here (ffprobe), so only this function and the worker bundle the tools; a linked one is fetched here.
// The sample clip is only found here (and copied); the sample-demo worker makes it.
export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), demoMedia: new FfmpegDemoMedia(), remoteFiles: createLinkedFileDownloader(), sampleDemo: new BlobSampleDemo(common.blobs) })));
