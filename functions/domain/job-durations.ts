/**
 * `estimated_seconds` from this stack's own recent jobs: the median of the latest samples of the
 * job's kind (domain rules; use-cases/job-duration-estimate.ts reads and writes them).
 */
import type { JobMethod, JobMode } from './jobs';

/** Samples kept per kind: enough for a steady median, few enough to follow a change within a day's jobs. */
export const DURATION_SLOTS = 21;
/** Below this many samples the measured table stands in (domain/quote.ts). */
const MIN_DURATION_SAMPLES = 5;

/** A job's kind for timing: what runs before its next stop. A preview stops before composing, so its hook does not count. */
export function durationKind(method: JobMethod, mode: JobMode, hookDuration: 'reaction' | 'full' = 'reaction'): string {
  if (mode === 'preview') return `${method}/preview`;
  return hookDuration === 'full' ? `${method}/auto_full` : `${method}/auto`;
}

/** Ids are handed out in order, so a job's id picks its slot round-robin: each slot holds a recent job. */
export const durationSlot = (jobId: number) => jobId % DURATION_SLOTS;

/** The median of the samples, rounded up to whole seconds; null when there are too few to trust. */
export function medianSeconds(samples: readonly number[]): number | null {
  if (samples.length < MIN_DURATION_SAMPLES) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return Math.max(1, Math.ceil(median));
}
