import { createApiHandler } from '#http/api-handler';
import { musicOperations } from '#api/music';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoMusicStore } from '#adapters/dynamodb/music';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { withParts } from '#wiring/not-bundled';
import { FfmpegMusicMedia } from '#adapters/media/ffmpeg-music-media';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ music: DynamoMusicStore, uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(musicOperations, onlyStores(dependencies, STORES));

// Uploaded tracks are judged and levelled here (ffprobe, ffmpeg), within the request.
export const handler = createHandler(withParts(lambdaApiDependencies(STORES), () => ({ musicMedia: new FfmpegMusicMedia() })));
