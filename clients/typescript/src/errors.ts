/**
 * Errors as the client sees them. The API answers every failure with one envelope,
 * `{"error": message, "code": code, "param"?: field, "request_id": id, "doc_url": link}`, and every
 * response carries an `x-request-id` header: an ApiError keeps all of it, so a caller can branch on
 * `code`, point at the field in `param`, quote `requestId` to support and link `docUrl`.
 */

import type { ErrorCode } from './types.js';

/** The API's codes, and room for one added after these types were generated. */
export type ApiErrorCode = ErrorCode | 'unknown_error' | (string & {});

interface ErrorEnvelope {
  error?: unknown;
  code?: unknown;
  request_id?: unknown;
  param?: unknown;
  doc_url?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The envelope's `code` (e.g. `not_found`, `rate_limited`); `unknown_error` when the body was not the envelope. */
  readonly code: ApiErrorCode;
  readonly status: number;
  /** From the `x-request-id` header, or the envelope. */
  readonly requestId: string | null;
  /** The request field at fault (`hook_text`, `variants.2.hook_text`), when the API named one. */
  readonly param: string | null;
  /** The code's entry in the API's error reference, absolute when the request's URL is known. */
  readonly docUrl: string | null;
  /** Seconds from `Retry-After`, when the API sent it (429 and 503). */
  readonly retryAfterS: number | null;
  /** The body as received, parsed when it was JSON. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: ApiErrorCode;
    message: string;
    requestId: string | null;
    retryAfterS: number | null;
    body: unknown;
    param?: string | null;
    docUrl?: string | null;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.param = init.param ?? null;
    this.docUrl = init.docUrl ?? null;
    this.retryAfterS = init.retryAfterS;
    this.body = init.body;
  }

  /** Builds the error from a failed response and its already-read body (text or parsed JSON). */
  static from(response: Response, body: unknown): ApiError {
    const envelope: ErrorEnvelope = typeof body === 'object' && body !== null ? body : {};
    const headerId = response.headers.get('x-request-id');
    return new ApiError({
      status: response.status,
      code: typeof envelope.code === 'string' ? envelope.code : 'unknown_error',
      message: typeof envelope.error === 'string' ? envelope.error : `HTTP ${response.status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`,
      requestId: headerId ?? (typeof envelope.request_id === 'string' ? envelope.request_id : null),
      retryAfterS: retryAfterSeconds(response.headers.get('retry-after')),
      body,
      param: typeof envelope.param === 'string' ? envelope.param : null,
      docUrl: typeof envelope.doc_url === 'string' ? absoluteUrl(envelope.doc_url, response.url) : null,
    });
  }
}

/** The API's `doc_url` is relative to its host; against the response's URL it becomes a link (unchanged when that URL is unknown). */
function absoluteUrl(link: string, base: string): string {
  try {
    return new URL(link, base).href;
  } catch {
    return link;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** `Retry-After` is either delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A wait (for a job, a demo, an avatar) that ran past its `timeoutMs`; `last` is what was seen last. */
export class WaitTimeoutError<T = unknown> extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    message: string,
    readonly last: T | undefined,
  ) {
    super(message);
  }
}
