/**
 * What the studio says when the API refuses: the API's own message (it names the field or the limit)
 * under a heading a person can act on. The headings follow the contract's error codes.
 */
import { isApiError } from '#client/errors';
import { StorageUploadError } from '#client/direct-uploads';

const HEADINGS: Record<string, string> = {
  bad_request: 'Please check the form',
  unauthorized: 'Please sign in again',
  allowance_exhausted: "This month's video allowance is used up",
  library_full: 'The reaction library is full',
  avatars_full: 'You have as many avatars as your plan allows',
  forbidden: 'Not allowed',
  not_found: 'Not found — it may have been deleted',
  conflict: 'That cannot be done right now',
  payload_too_large: 'The file is too large',
  unsupported_media_type: 'That kind of file is not supported',
  invalid_media: 'The file could not be used',
  no_face: 'No face found — choose a photo or clip where one person faces the camera',
  rate_limited: 'Too many requests — wait a moment and try again',
  internal_error: 'Something went wrong on our side',
  upstream_unavailable: 'A service we depend on is busy — try again shortly',
};

export interface Problem {
  heading: string;
  detail: string;
  /** Quote it to support; present when the API gave one. */
  requestId?: string;
}

export function problemOf(error: unknown): Problem {
  if (isApiError(error)) {
    const wait = error.retryAfterS ? ` (try again in ${error.retryAfterS} s)` : '';
    return { heading: HEADINGS[error.code] ?? `The request failed (${error.status})`, detail: error.message + wait, requestId: error.requestId ?? undefined };
  }
  if (error instanceof StorageUploadError) return { heading: 'The upload was refused by storage', detail: 'The upload form may have expired; please choose the file again.' };
  if (error instanceof TypeError) return { heading: 'Cannot reach Reaction Studio', detail: 'Check your connection; your work is kept and you can try again.' };
  return { heading: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) };
}
