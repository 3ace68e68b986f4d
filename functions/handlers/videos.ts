import { createApiHandler } from '#http/api-handler';
import { videoJobOperations } from '#api/video-jobs';
import { finishedVideoOperations } from '#api/finished-videos';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler({ ...finishedVideoOperations, ...videoJobOperations }, dependencies);

export const handler = createHandler(lambdaDependencies);
