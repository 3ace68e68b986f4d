import { sweepStrandedWork } from '#pipeline/sweeper';
import { lambdaDependencies } from '#wiring/lambda';

/** Runs on a schedule (lib/cloud/job-pipeline.ts). */
export const handler = async () => sweepStrandedWork({ runner: lambdaDependencies().jobRunner });
