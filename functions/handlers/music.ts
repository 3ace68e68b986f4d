import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { musicOperations } from '#api/music';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoMusicStore } from '#adapters/dynamodb/music';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { FfmpegMusicMedia } from '#adapters/media/ffmpeg-music-media';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ music: DynamoMusicStore, uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof musicOperations>>) => createApiHandler(musicOperations, ports);

// Uploaded tracks are judged and levelled here (ffprobe, ffmpeg), within the request.
export const handler = createHandler(lambdaPorts(({ common, stores }) => ({ ...common, ...stores(STORES), musicMedia: new FfmpegMusicMedia() })));
