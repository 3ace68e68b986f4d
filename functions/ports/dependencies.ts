/**
 * Everything the use cases, operations and pipeline steps reach outside the process through, each
 * behind its port. One wiring module per runtime builds it (functions/wiring/lambda.ts on AWS,
 * lib/local/wiring.ts for the local stack, test/support/wiring.ts in tests); nothing else swaps a
 * dependency.
 */
import type { BackgroundTasks } from './background-tasks';
import type { BlobStore } from './blob-store';
import type { JobRunner } from './job-runner';

export interface Dependencies {
  /** Starts video jobs and hands preview decisions to their executions. */
  jobRunner: JobRunner;
  /** Work that outlives the request (demo normalisation, hosted avatar generation). */
  tasks: BackgroundTasks;
  /** Media objects: uploads, renders, finished videos. */
  blobs: BlobStore;
  /** The time every rule is decided against; tests pass a fixed clock. */
  now: () => Date;
}

/** Built lazily: a Lambda's first invocation builds it, tests and the local stack pass their own. */
export type DependencySource = () => Dependencies;
