/**
 * An example refusal of every code, as the envelope carries it: what the service says (the message
 * and field of a typical case) with a request id and the code's entry in the error reference.
 */
import type * as z from 'zod/mini';
import type { ErrorCode } from '#domain/errors';
import type { errorEnvelope } from '#domain/schemas/envelope';
import { ERROR_DOCS_PATH } from '#http/respond';

const TYPICAL: Record<ErrorCode, { error: string; param?: string }> = {
  bad_request: { error: 'Invalid video request: method=prompt needs prompt', param: 'prompt' },
  unauthorized: { error: 'Missing or invalid API key: send Authorization: Bearer rsk_…' },
  allowance_exhausted: { error: 'The monthly allowance of 150 videos is used; it renews on 2026-12-01, or change plan: PUT /account/plan (studio: Plans page; the plans: GET /plans)' },
  library_full: { error: 'The reaction library holds 50 reactions, as many as the pro plan allows: delete one, or change plan' },
  avatars_full: { error: 'The account has 100 avatars, as many as the pro plan allows: delete one, or change plan' },
  payment_failed: { error: 'Your card was declined' },
  forbidden: { error: 'This API key lacks the scope(s) this call needs: write' },
  not_found: { error: 'Product not found', param: 'product_id' },
  method_not_allowed: { error: 'Method PATCH is not allowed here' },
  request_timeout: { error: 'The request body was not received in time' },
  conflict: { error: 'The job is not awaiting approval (it is processing)' },
  billing_not_configured: { error: 'This deployment takes no payments: only the free plan can be chosen' },
  video_expired: { error: "Video 95's file expired at 2026-12-26T00:00:00.000Z (kept 30 days under the plan it was made with); its record stays listed with expired: true until deleted" },
  payload_too_large: { error: 'reference_video is larger than 100 MB', param: 'reference_video' },
  unsupported_media_type: { error: 'demo_video must be MP4, MOV, AVI or WebM (this one is a PNG image)', param: 'demo_video' },
  expectation_failed: { error: 'Only Expect: 100-continue is supported' },
  invalid_media: { error: 'demo_video looks like MP4 but cannot be read (truncated or damaged?); export it again and re-upload it', param: 'demo_video' },
  no_face: { error: 'No face was found in the reference video; use one where a face is clearly visible', param: 'reference_url' },
  rate_limited: { error: 'Rate limit of 120 requests per minute exceeded; retry in 14 s' },
  headers_too_large: { error: 'The request headers are too large' },
  internal_error: { error: 'Internal server error' },
  upstream_unavailable: { error: 'The generation provider is busy; retry in a minute' },
};

/** The envelope of a refusal with this code. */
export const errorExample = (code: ErrorCode): z.output<typeof errorEnvelope> => ({
  ...TYPICAL[code],
  code,
  request_id: 'Hq3kVbq1rTzW8m2cLx0aPw',
  doc_url: `${ERROR_DOCS_PATH}#${code}`,
});
