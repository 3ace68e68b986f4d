import { createApiHandler } from '#http/api-handler';
import { productOperations } from '#api/products';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(productOperations, dependencies);

// Uploaded demo videos are judged here (ffprobe), so only this function and the worker bundle the tools.
export const handler = createHandler(withParts(lambdaDependencies, () => ({ demoMedia: new FfmpegDemoMedia() })));
