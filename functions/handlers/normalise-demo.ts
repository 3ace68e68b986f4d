/** The normalise-demo worker: started asynchronously when a product's demo video is uploaded. */
import type { DependencySource } from '#ports/dependencies';
import { normaliseDemo, type NormaliseTask } from '#workers/normalise-demo';
import { lambdaDependencies } from '#wiring/lambda';

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (_dependencies: DependencySource) => (task: NormaliseTask) => normaliseDemo(task);

export const handler = createHandler(lambdaDependencies);
