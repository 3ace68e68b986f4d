/**
 * What the studio says when the API refuses: the API's own message (it names the field or the limit)
 * under a heading that names what happened. The headings follow the contract's error codes
 * (functions/domain/errors.ts; a test holds the two lists together), and some codes mean something
 * more precise for one action: a 401 to a sign-in is a wrong password, not an expired session.
 */
import { isApiError } from '#client/errors';
import { StorageUploadError } from '#client/direct-uploads';

const HEADINGS: Record<string, string> = {
  bad_request: 'Please check the form',
  unauthorized: 'Please sign in again',
  allowance_exhausted: "This month's video allowance is used up",
  library_full: 'The reaction library is full',
  avatars_full: 'You have as many avatars as your plan allows',
  payment_failed: 'The payment did not go through — the plan is unchanged',
  forbidden: 'Not allowed',
  not_found: 'Not found — it may have been deleted',
  method_not_allowed: 'The studio asked in a way the API does not take — reload the page',
  request_timeout: 'The request took too long to arrive — try again',
  conflict: 'That cannot be done right now',
  billing_not_configured: 'Paid plans are not available on this deployment',
  payload_too_large: 'The file is too large',
  unsupported_media_type: 'That kind of file is not supported',
  invalid_media: 'The file could not be used',
  no_face: 'No face found — choose a photo or clip where one person faces the camera',
  expectation_failed: 'The request was refused — reload the page and try again',
  rate_limited: 'Too many requests — wait a moment and try again',
  headers_too_large: 'The request was too large — sign out and in again',
  internal_error: 'Something went wrong on our side',
  upstream_unavailable: 'A service we depend on is busy — try again shortly',
  video_expired: 'This video has expired: its file was deleted after your plan’s retention',
};

/** Actions whose refusals say more than their code alone. */
export type Action = 'sign-in' | 'sign-up' | 'change-password';

const ACTION_HEADINGS: Record<Action, Record<string, string>> = {
  'sign-in': { unauthorized: 'Wrong email or password', rate_limited: 'Too many sign-in attempts — wait a moment and try again' },
  'sign-up': { conflict: 'That email already has an account', bad_request: 'Please check your email and password' },
  'change-password': { forbidden: 'The current password is wrong', bad_request: 'Please choose another new password' },
};

export interface Problem {
  heading: string;
  detail: string;
  /** Quote it to support; present when the API gave one. */
  requestId?: string;
  /** A 402: the plan's allowance or a cap is reached, and a larger plan is the way on (the Plans page). */
  changePlan?: true;
}

export function problemOf(error: unknown, action?: Action): Problem {
  if (isApiError(error)) {
    const wait = error.retryAfterS ? ` (try again in ${error.retryAfterS} s)` : '';
    const heading = (action && ACTION_HEADINGS[action][error.code]) ?? HEADINGS[error.code] ?? `The request failed (${error.status})`;
    return { heading, detail: error.message + wait, requestId: error.requestId ?? undefined, ...(error.status === 402 ? { changePlan: true as const } : {}) };
  }
  if (error instanceof StorageUploadError) return { heading: 'The upload was refused by storage', detail: 'The upload form may have expired; please choose the file again.' };
  if (error instanceof TypeError) return { heading: 'Cannot reach Reaction Studio', detail: 'Check your connection; your work is kept and you can try again.' };
  return { heading: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) };
}
