import { createApiHandler } from '#http/api-handler';
import { hookOperations } from '#api/hooks';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { hookEngines } from '#adapters/engines/hook-engine';

/** The operations this group serves, for any runtime's wiring. */
export const createHandler = (dependencies: DependencySource) => createApiHandler(hookOperations, dependencies);

export const handler = createHandler(withParts(lambdaDependencies, (base) => ({ engines: { ...base.engines, ...hookEngines() } })));
