import { sweepStrandedWork } from '#pipeline/sweeper';
import { jobRunner } from '#ports/job-runner';

/** Runs on a schedule (lib/cloud/job-pipeline.ts). */
export const handler = async () => sweepStrandedWork({ runner: await jobRunner() });
