/**
 * The local runtime's wiring: the adapters the local stack serves each port with. Jobs run on the
 * in-process ASL runner and background work on in-process tasks instead of Step Functions and Lambda.
 */
import type { Dependencies } from '#ports/dependencies';
import type { BackgroundTasks } from '#ports/background-tasks';
import type { JobRunner } from '#ports/job-runner';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { s3 } from '#adapters/aws-clients';
import { LOCAL_BUCKET } from './runtime-state';

export interface LocalParts {
  jobRunner: JobRunner;
  tasks: BackgroundTasks;
}

export function localDependencies(parts: LocalParts): Dependencies {
  return { jobRunner: parts.jobRunner, tasks: parts.tasks, blobs: new S3BlobStore(s3(), LOCAL_BUCKET), now: () => new Date() };
}
