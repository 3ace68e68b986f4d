import { sweepStrandedWork } from '#pipeline/sweeper';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** Runs on a schedule (lib/cloud/job-pipeline.ts); on AWS it also starts jobs written but never started. */
export const createHandler = (dependencies: DependencySource) => async () => {
  const deps = dependencies();
  return sweepStrandedWork(deps, { runner: deps.jobRunner });
};

export const handler = createHandler(lambdaDependencies);
