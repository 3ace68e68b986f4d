import { createApiHandler } from '#http/api-handler';
import { socialConnectionOperations } from '#api/social-connections';
import { socialPostOperations } from '#api/social-posts';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { socialOnAws } from '#wiring/social-on-aws';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler({ ...socialConnectionOperations, ...socialPostOperations }, dependencies);

export const handler = createHandler(withParts(lambdaDependencies, socialOnAws));
