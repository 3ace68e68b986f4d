import { sweepStrandedWork } from '#pipeline/sweeper';
import type { DependencySource } from '#ports/dependencies';
import { lambdaDependencies } from '#wiring/lambda';

/** Runs on a schedule (lib/cloud/job-pipeline.ts). */
export const createHandler = (dependencies: DependencySource) => async () => sweepStrandedWork({ runner: dependencies().jobRunner });

export const handler = createHandler(lambdaDependencies);
