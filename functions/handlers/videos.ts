import { createApiHandler } from '#http/api-handler';
import { videoJobOperations } from '#api/video-jobs';
import { finishedVideoOperations } from '#api/finished-videos';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { FfprobeMediaInspector } from '#adapters/media/ffprobe-media-inspector';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler({ ...finishedVideoOperations, ...videoJobOperations }, dependencies);

// Uploaded reference clips are judged here (ffprobe), so only this function bundles the inspector.
export const handler = createHandler(withParts(lambdaDependencies, () => ({ media: new FfprobeMediaInspector() })));
