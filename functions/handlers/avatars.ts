import { createApiHandler } from '#http/api-handler';
import { avatarOperations } from '#api/avatars';
import type { PortSource } from '#ports/ports';
import { lambdaApiDependencies } from '#wiring/lambda';
import { apiStores, onlyStores } from '#wiring/table-stores';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoUploadStore } from '#adapters/dynamodb/uploads';
import { withParts } from '#wiring/not-bundled';
import { inlineAvatarEngines } from '#adapters/engines/avatar-engine';
import { SharpAvatarImages } from '#adapters/media/sharp-avatar-images';
import { humanImageFaces } from '#adapters/media/human-image-faces';
import { createLinkedFileDownloader } from '#adapters/reference/direct-media-resolver';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import { renderAvatarPng } from '#render';

/** The table's stores this function's operations use: all it bundles of them. */
const STORES = apiStores({ avatars: DynamoAvatarStore, accounts: DynamoAccountStore, uploads: DynamoUploadStore });

/** The operations this group serves, for any runtime's wiring; they see only their stores. */
export const createHandler = (dependencies: PortSource) => createApiHandler(avatarOperations, onlyStores(dependencies, STORES));

// Only the inline (local) engine: a hosted one runs in the generate-avatar worker. Uploads are checked with sharp and for a face here; a linked image is fetched here;
// the stock avatars' portraits are drawn here (sharp) the first time a list needs them.
export const handler = createHandler(
  withParts(lambdaApiDependencies(STORES), (base) => ({
    engines: { ...base.engines, ...inlineAvatarEngines({ blobs: base.blobs }) },
    avatarImages: new SharpAvatarImages(),
    faces: { ...base.faces, ...humanImageFaces },
    remoteFiles: createLinkedFileDownloader(),
    stockAvatars: new BlobStockAvatars(base.blobs, renderAvatarPng),
  })),
);
