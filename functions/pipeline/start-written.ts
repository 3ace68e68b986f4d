/**
 * A job is written (with its reserved unit) and then started; a process that dies between the two
 * leaves a queued job no execution will ever run. Starting is idempotent per job (one execution name
 * per job), so whoever notices such a job may start it: on AWS the table's stream, within seconds of
 * the write (functions/handlers/job-starter.ts), and the sweeper as the last net.
 */
import { executionInputOf, type StoredJob } from '#domain/job-execution';
import type { Ports } from '#ports/ports';
import type { JobRunner } from '#ports/job-runner';
import { STATE_OF_STEP } from './steps';

export interface JobRef {
  accountId: number;
  jobId: number;
}

/** Whether the job is written and no step of it has run yet: queued, to resume at the first step. */
export async function startIfNeverStarted(deps: Pick<Ports, 'jobs'>, runner: JobRunner, ref: JobRef, writtenBefore?: Date): Promise<boolean> {
  const job = await deps.jobs.get(ref.accountId, ref.jobId);
  return job ? startJobIfNeverStarted(runner, job, writtenBefore) : false;
}

/** The same, for a job already read. */
export async function startJobIfNeverStarted(runner: JobRunner, job: StoredJob, writtenBefore?: Date): Promise<boolean> {
  if (job.status !== 'queued' || job.resume_at !== STATE_OF_STEP.prepare) return false;
  if (writtenBefore && Date.parse(job.created_at) > writtenBefore.getTime()) return false;
  await runner.start(executionInputOf(job));
  return true;
}
