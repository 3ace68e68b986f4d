import { pipelineHandler } from '#pipeline/lambda-handler';
import { RENDER_STEPS } from '#pipeline/render-steps';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** The state machine's media Tasks (functions/pipeline/steps.ts says which). */
export const createHandler = (dependencies: DependencySource) => pipelineHandler(RENDER_STEPS);

export const handler = createHandler(lambdaDependencies);
