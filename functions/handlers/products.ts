import { createApiHandler } from '#http/api-handler';
import { productOperations } from '#api/products';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(productOperations, dependencies);

export const handler = createHandler(lambdaDependencies);
