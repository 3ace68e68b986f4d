import { createApiHandler } from '#http/api-handler';
import { usageOperations } from '#api/usage';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(usageOperations, dependencies);

export const handler = createHandler(lambdaDependencies);
