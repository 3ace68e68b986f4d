/**
 * Error codes of the API, with their HTTP statuses: the one list
 * every layer uses. Errors are data: a status, a code, a message fit for the client, and whether the
 * message may be shown (a 5xx never exposes its message).
 */

export const ERROR_CODES = {
  bad_request: 400,
  unauthorized: 401,
  allowance_exhausted: 402,
  library_full: 402,
  avatars_full: 402,
  payment_failed: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  billing_not_configured: 409,
  video_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  invalid_media: 422,
  no_face: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * What each code means and what a caller does about it: the served error reference
 * (`GET /api/v1/docs/errors`, where every envelope's `doc_url` points) and the API description.
 */
export const ERROR_HELP: Record<ErrorCode, string> = {
  bad_request: 'The request is malformed or a field is invalid. The message names the problem and `param` the field; fix it and send again.',
  unauthorized: 'No valid credentials: send `Authorization: Bearer rsk_…` with a key that exists, or sign in again for a session.',
  allowance_exhausted:
    "The plan's monthly videos are used or reserved. Wait for the next period (`GET /usage` says when) or change plan: `PUT /account/plan` from the studio's session (its Plans page); `GET /plans` lists them. An upgrade raises the allowance at once.",
  library_full:
    "The reaction library is at its plan's size. Delete a saved reaction (`DELETE /reactions/{id}`) or change plan: `PUT /account/plan` from the studio's session (its Plans page); `GET /plans` lists them.",
  avatars_full:
    "The account has as many avatars as its plan allows. Delete one (`DELETE /avatars/{id}`) or change plan: `PUT /account/plan` from the studio's session (its Plans page); `GET /plans` lists them.",
  payment_failed: 'The payment provider refused the charge for a plan change (a declined card, say); the plan did not change. Update the payment method and try again.',
  forbidden: 'The credentials are valid but may not do this (an API key on a session-only route, a scope it lacks).',
  not_found: 'Nothing with that id belongs to this account (another account\'s records are not found either). Check the id.',
  method_not_allowed: 'The path exists but not with this method; the `Allow` header lists the methods it takes.',
  request_timeout: 'The request was not received in time. Send it again, whole.',
  billing_not_configured:
    'This deployment takes no payments (no payment provider is configured), so it cannot move an account to a paid plan; `GET /plans` says so in `billing`. A change to the free plan still works.',
  conflict: "The record is not in a state that allows this (a job that is not awaiting approval, a product whose demo is still processing), it is shared by every account and cannot be deleted (a stock avatar, a built-in music track), or an `Idempotency-Key` was reused with a different body. Read the record's state and retry when it allows.",
  video_expired:
    "The video's file is past the retention of the plan it was made under (`expires_at` on the video; `video_retention_days` in `GET /plans`) and has been deleted: it can no longer be played, downloaded or published. The record stays listed with `expired: true` until you delete it. Make the video again if you need it.",
  payload_too_large: 'The body or a file is over its limit; the message gives the limit. Large files go through `POST /uploads`.',
  unsupported_media_type: 'The body or a file is of a type this route does not take; the message lists what it does take.',
  expectation_failed: 'Only `Expect: 100-continue` is supported; send the request without the other expectation.',
  invalid_media: 'A file was read and could not be used (not a video, corrupt, too long, the wrong shape); the message says what. Send another file.',
  no_face: 'No face was found in the image or reference video. Use one where a face is clearly visible; nothing was charged.',
  rate_limited: 'Too many requests for this account. Wait the `Retry-After` seconds and send again.',
  headers_too_large: 'The request headers are too large. Send fewer or shorter headers.',
  internal_error: 'A problem on our side. Retrying is safe for reads and for writes sent with an `Idempotency-Key`; quote `request_id` to support if it persists.',
  upstream_unavailable: 'A provider this request needs is busy or down. Wait the `Retry-After` seconds (or a few) and send again.',
};

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Messages of 5xx errors are logged, never sent. */
  readonly expose: boolean;
  readonly headers: Record<string, string>;
  /** The request field at fault (`hook_text`, `metadata.campaign`), when one is. */
  readonly param: string | undefined;

  constructor(code: ErrorCode, message: string, options: { headers?: Record<string, string>; cause?: unknown; param?: string } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    // A busy upstream is worth telling: the client should retry, not report a bug.
    this.expose = this.status < 500 || code === 'upstream_unavailable';
    this.headers = options.headers ?? {};
    this.param = options.param;
  }
}

/**
 * A file refused for what the request asked of it, not for itself (a landscape demo sent without a
 * reframe): sent again with other options, the same file is taken, so a direct upload is kept for it.
 */
export class RefusedAsAsked extends AppError {}

export const badRequest = (message: string, param?: string) => new AppError('bad_request', message, param === undefined ? {} : { param });
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const conflict = (message: string) => new AppError('conflict', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
