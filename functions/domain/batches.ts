/**
 * Video batches (docs/decisions.md, Video batches): several jobs of one product made by one request,
 * reserved together, and read back together with how many stand at each status.
 */
import { JOB_STATUSES, type JobStatus } from './jobs';

export const BATCH_LIMITS = {
  /** 20 jobs, their 20 units, the batch, its key and the period counter are 43 items: one DynamoDB transaction (100 at most). */
  maxVariants: 20,
} as const;

export interface VideoBatch {
  id: number;
  account_id: number;
  product_id: number;
  /** The variants' jobs, in variant order. */
  job_ids: number[];
  created_at: string;
}

type BatchCounts = Record<JobStatus, number>;

export interface BatchView<J> {
  id: number;
  product_id: number;
  created_at: string;
  jobs: J[];
  counts: BatchCounts;
}

export function batchView<J extends { status: JobStatus }>(batch: VideoBatch, jobs: J[]): BatchView<J> {
  const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as BatchCounts;
  for (const job of jobs) counts[job.status]++;
  return { id: batch.id, product_id: batch.product_id, created_at: batch.created_at, jobs, counts };
}
