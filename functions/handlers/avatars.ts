import { createApiHandler, type ApiPorts } from '#http/api-handler';
import { avatarOperations } from '#api/avatars';
import type { PortSource } from '#ports/ports';
import { lambdaPorts } from '#wiring/lambda';
import { apiStores } from '#wiring/table-stores';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { inlineAvatarEngines } from '#adapters/engines/avatar-engine';
import { SharpAvatarImages } from '#adapters/media/sharp-avatar-images';
import { humanImageFaces } from '#adapters/media/human-image-faces';
import { createLinkedFileDownloader } from '#adapters/reference/direct-media-resolver';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import { renderAvatarPng } from '#render';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ avatars: DynamoAvatarStore, accounts: DynamoAccountStore, uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring: it must supply every port they name. */
export const createHandler = (ports: PortSource<ApiPorts<typeof avatarOperations>>) => createApiHandler(avatarOperations, ports);

// Only the inline (local) engine: a hosted one runs in the generate-avatar worker. Uploads are checked with sharp and for a face here; a linked image is fetched here;
// the stock avatars' portraits are drawn here (sharp) the first time a list needs them.
export const handler = createHandler(
  lambdaPorts(({ common, stores }) => ({
    ...common,
    ...stores(STORES),
    engines: inlineAvatarEngines({ blobs: common.blobs }),
    avatarImages: new SharpAvatarImages(),
    faces: humanImageFaces,
    remoteFiles: createLinkedFileDownloader(),
    stockAvatars: new BlobStockAvatars(common.blobs, renderAvatarPng),
  })),
);
