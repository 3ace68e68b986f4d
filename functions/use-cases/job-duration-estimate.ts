/**
 * `estimated_seconds` as this stack runs: each job that reaches its next stop leaves its time from
 * request to that stop (queue included, as the caller waits it), and a quote answers the median of
 * its kind's latest samples, or the measured table (domain/quote.ts) until a kind has enough.
 */
import { durationKind, durationSlot, medianSeconds } from '#domain/job-durations';
import type { StoredJob } from '#domain/job-execution';
import type { JobMethod, JobMode } from '#domain/jobs';
import { estimatedSeconds } from '#domain/quote';
import type { JobDurationStore } from '#ports/job-durations';

export interface JobDurationDeps {
  jobDurations: JobDurationStore;
}

/**
 * A job's time to `stop`: an auto job's to done, a first preview's to preview_ready. An approved
 * preview's done (it waited on a person) and a regenerated round's preview are not samples.
 */
export async function recordJobDuration(deps: JobDurationDeps, job: StoredJob, stop: 'done' | 'preview_ready', now: Date): Promise<void> {
  if (stop === 'done' ? job.mode !== 'auto' : job.mode !== 'preview' || job.regenerations > 0) return;
  const seconds = (now.getTime() - Date.parse(job.created_at)) / 1000;
  if (!(seconds > 0)) return;
  try {
    await deps.jobDurations.record(durationKind(job.method, job.mode, job.hook_duration), durationSlot(job.id), seconds);
  } catch {
    // An estimate's sample: never worth failing the job's step for.
  }
}

export interface EstimateRequest {
  method: JobMethod;
  mode: JobMode;
  hookDuration?: 'reaction' | 'full';
}

/** Seconds to each request's next stop, kinds read once each; the table where a kind has too few samples or cannot be read. */
export async function estimateSeconds(deps: JobDurationDeps, requests: readonly EstimateRequest[]): Promise<number[]> {
  const medians = new Map<string, Promise<number | null>>();
  const medianOf = (kind: string) => {
    if (!medians.has(kind)) medians.set(kind, Promise.resolve().then(() => deps.jobDurations.samples(kind)).then(medianSeconds, () => null));
    return medians.get(kind)!;
  };
  return Promise.all(requests.map(async ({ method, mode, hookDuration }) => (await medianOf(durationKind(method, mode, hookDuration))) ?? estimatedSeconds(method, mode, hookDuration)));
}
