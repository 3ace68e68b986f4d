import { createApiHandler } from '#http/api-handler';
import { avatarOperations } from '#api/avatars';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(avatarOperations, dependencies);

export const handler = createHandler(lambdaDependencies);
