import { failStuckProcessing } from '#pipeline/stuck-processing';
import { sweepStrandedWork } from '#pipeline/sweeper';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';
import { withLambdaContext } from '#functions/logger';

/**
 * Runs on a schedule (lib/cloud/job-pipeline.ts): stranded units, jobs written but never started, and
 * demos and avatars stuck in processing (pipeline/stuck-processing.ts).
 */
export const createHandler = (dependencies: DependencySource) => async (_scheduledEvent?: unknown) => {
  const deps = dependencies();
  return { ...(await sweepStrandedWork(deps, { runner: deps.jobRunner })), ...(await failStuckProcessing(deps)) };
};

export const handler = withLambdaContext(createHandler(lambdaDependencies));
