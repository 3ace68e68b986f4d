import { pipelineHandler } from '#pipeline/lambda-handler';
import { BOOKKEEPING_STEPS } from '#pipeline/bookkeeping-steps';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The state machine's bookkeeping Tasks (functions/pipeline/steps.ts says which). */
export const createHandler = (dependencies: DependencySource) => pipelineHandler(BOOKKEEPING_STEPS);

export const handler = createHandler(lambdaDependencies);
