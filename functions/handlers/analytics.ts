import { createApiHandler } from '#http/api-handler';
import { analyticsOperations } from '#api/analytics';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { socialOnAws } from '#wiring/social-on-aws';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(analyticsOperations, dependencies);

export const handler = createHandler(withParts(lambdaDependencies, socialOnAws));
