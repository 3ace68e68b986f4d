import { createApiHandler } from '#http/api-handler';
import { uploadOperations } from '#api/uploads';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(uploadOperations, dependencies);

export const handler = createHandler(lambdaDependencies);
