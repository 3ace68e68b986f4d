/**
 * How long a preview job waits for approve or regenerate before it fails with preview_expired: the
 * contract's 30 days, counted once from its first preview (the job's one deadline, which
 * ChargePreview fixes and AwaitDecision waits for; regenerations do not move it). A local stack may
 * shorten it (PREVIEW_EXPIRY_SECONDS) to try expiry; it is never longer than 30 days, which the
 * execution's TimeoutSeconds is computed to outlast.
 */
import { JOB_LIMITS } from './jobs';

export const PREVIEW_WAIT_MAX_S = JOB_LIMITS.previewExpiryDays * 24 * 3600;
