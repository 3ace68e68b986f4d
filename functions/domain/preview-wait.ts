/**
 * How long a preview waits for approve or regenerate before the job fails with preview_expired: the
 * contract's 30 days (the ASL's AwaitDecision TimeoutSeconds). A local stack may shorten it
 * (PREVIEW_EXPIRY_SECONDS) to try expiry; it can never be longer than the state machine waits.
 */
import { JOB_LIMITS } from './jobs';

export const PREVIEW_WAIT_MAX_S = JOB_LIMITS.previewExpiryDays * 24 * 3600;

/** The configured wait, in seconds; unset or not a positive number is the full wait. */
export function previewWaitSecondsOf(raw: string | undefined): number {
  const configured = Number(raw);
  return Number.isFinite(configured) && configured > 0 ? Math.min(configured, PREVIEW_WAIT_MAX_S) : PREVIEW_WAIT_MAX_S;
}
