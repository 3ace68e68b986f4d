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
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
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

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Messages of 5xx errors are logged, never sent. */
  readonly expose: boolean;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    // A busy upstream is worth telling: the client should retry, not report a bug.
    this.expose = this.status < 500 || code === 'upstream_unavailable';
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const conflict = (message: string) => new AppError('conflict', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
