/** A batch at a glance: how many of its videos stand where, and whether anything still moves on its own. Pure. */
import type { Job, VideoBatch } from '#client/types';
import { isSettled } from '../jobs/job-words';

const PARTS: [keyof VideoBatch['counts'], string, string][] = [
  ['queued', 'waiting to start', 'waiting to start'],
  ['processing', 'being made', 'being made'],
  ['preview_ready', 'preview to review', 'previews to review'],
  ['done', 'done', 'done'],
  ['failed', 'failed', 'failed'],
];

interface BatchState {
  jobs: readonly Pick<Job, 'status'>[];
  counts: VideoBatch['counts'];
}

/** "3 videos: 2 previews to review, 1 done". */
export function batchSummary(batch: BatchState): string {
  const parts = PARTS.filter(([status]) => batch.counts[status] > 0).map(([status, one, many]) => `${batch.counts[status]} ${batch.counts[status] === 1 ? one : many}`);
  const total = batch.jobs.length;
  return `${total} video${total === 1 ? '' : 's'}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** Nothing moves without a person: every job is done, failed or waiting for a decision. */
export const batchSettled = (batch: Pick<BatchState, 'jobs'>) => batch.jobs.every(isSettled);
