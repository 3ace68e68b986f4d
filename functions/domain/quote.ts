/**
 * Dry runs (`?dry_run=true` on POST /videos and regenerate): what a request would take from the
 * monthly allowance, the allowance as it stands, and about how long the work would run. Rules only;
 * the use cases read the stores and run every check of the real request first.
 */
import { AppError } from './errors';
import type { JobMethod } from './jobs';
import { CHANGE_PLAN_HINT } from './plans';

/** This month's allowance as GET /usage shows it. */
export interface AllowanceState {
  limit: number;
  used: number;
  reserved: number;
  remaining: number;
}

export interface VideoQuote {
  valid: true;
  /** Allowance units the request would reserve (0: a repeat of an earlier request with its Idempotency-Key). */
  units: number;
  /** The allowance now, before the request. */
  allowance: AllowanceState;
  estimated_seconds: number;
}

export function allowanceState(limit: number, usage: { used: number; reserved: number }): AllowanceState {
  return { limit, used: usage.used, reserved: usage.reserved, remaining: Math.max(0, limit - usage.used - usage.reserved) };
}

/** The refusal of a reservation past the limit (the ledger's, word for word, so a dry run and the real request agree). */
export const allowanceExhausted = (limit: number, period: string) =>
  new AppError('allowance_exhausted', `The monthly allowance of ${limit} videos is used up for ${period}; wait for the next period (GET /usage) or ${CHANGE_PLAN_HINT}`);

/** What a real request would refuse: more units than are left (402). */
export function assertAllowanceCovers(state: AllowanceState, units: number, period: string): void {
  if (units > state.remaining) throw allowanceExhausted(state.limit, period);
}

/**
 * Seconds from the request to the job's next stop (auto: `done`; preview and regenerate:
 * `preview_ready`), not counting a wait for a render slot: what a quote answers until this stack has
 * timed enough jobs of the kind (use-cases/job-duration-estimate.ts). These are the local stack's
 * measured figures (docs/benchmarks.md, 2026-11-25, 2 cores, local engine):
 * prompt auto POST→done median 2.42 s, prompt preview POST→preview_ready 3.41 s; a motion reaction
 * renders 0.96 s longer than a prompt one (2.76 vs 1.80 s); a reuse job skips that 1.80 s render, and
 * auto then encodes the caption segment on its own (2.15 s, compose row). A regenerate runs the
 * preview path again from the reaction (prepare, 0.01 s, is not repeated: below the rounding).
 */
const MEASURED_SECONDS: Readonly<Record<JobMethod, { auto: number; preview: number }>> = {
  prompt: { auto: 2.42, preview: 3.41 },
  motion: { auto: 2.42 + 0.96, preview: 3.41 + 0.96 },
  reuse: { auto: 2.42 - 1.8 + 2.15, preview: 3.41 - 1.8 },
};

/**
 * What hook_duration=full adds to composing: the demo's pictures encoded once more under the caption.
 * `npm run bench -- --only compose` (2026-11-29, a loaded 2-core machine) measured it at 17.9 ffmpeg
 * CPU seconds over the 15 s demo, as much as the old full re-encode, which took 17.75 s wall on the
 * quiet machine of the figures above: about 14 s for the demo's part of it (15 of 19 s).
 */
const FULL_CAPTION_SECONDS = 14;

/** Whole seconds, rounded up: a figure measured on a quiet machine is a floor, not a promise. */
export function estimatedSeconds(method: JobMethod, mode: 'auto' | 'preview', hookDuration: 'reaction' | 'full' = 'reaction'): number {
  // A preview stops before composing; only an auto job composes before its next stop.
  const composing = mode === 'auto' && hookDuration === 'full' ? FULL_CAPTION_SECONDS : 0;
  return Math.ceil(MEASURED_SECONDS[method][mode] + composing);
}
