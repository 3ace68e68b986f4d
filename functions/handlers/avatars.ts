import { createApiHandler } from '#http/api-handler';
import { avatarOperations } from '#api/avatars';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { inlineAvatarEngines } from '#adapters/engines/avatar-engine';
import { SharpAvatarImages } from '#adapters/media/sharp-avatar-images';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(avatarOperations, dependencies);

// Only the inline (local) engine: a hosted one runs in the generate-avatar worker. Uploads are checked with sharp here.
export const handler = createHandler(
  withParts(lambdaDependencies, (base) => ({ engines: { ...base.engines, ...inlineAvatarEngines({ blobs: base.blobs }) }, avatarImages: new SharpAvatarImages() })),
);
