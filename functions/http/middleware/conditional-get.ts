/**
 * Conditional GETs (RFC 9110 §13.1.2): a successful GET answers an `ETag` drawn from its body, and a
 * request whose `If-None-Match` names it gets 304 with no body. Clients that poll a job (the studio,
 * `waitForJob`) then move a few headers instead of the job while nothing changed.
 *
 * The tag hashes the exact body, so a 304 never stands for stale data: an answer that carries signed
 * media links (signed anew on each request) simply changes every time and is always sent whole.
 */
import type middy from '@middy/core';
import { createHash } from 'node:crypto';
import type { ApiContext, ApiEvent, ApiResult } from '#http/api-types';

/** Strong validator: the first 128 bits of the body's SHA-256, base64url. */
export const etagOf = (body: string): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

/** Whether an If-None-Match value (a list of tags, weak or strong, or `*`) matches `etag` (weak comparison, as §13.1.2 asks). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function conditionalGet(): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    after: (request) => {
      const response = request.response;
      const method = request.event.requestContext?.http?.method;
      if (method !== 'GET' || response?.statusCode !== 200 || typeof response.body !== 'string' || response.isBase64Encoded) return;
      const etag = etagOf(response.body);
      // no-cache: a browser may keep the answer, but asks again (with the tag) before each use.
      const headers = { 'cache-control': 'private, no-cache', ...response.headers, etag };
      const asked = request.event.headers?.['if-none-match'];
      request.response = noneMatch(asked, etag) ? { statusCode: 304, headers: withoutContentHeaders(headers), body: '' } : { ...response, headers };
    },
  };
}

/** A 304 describes the representation it stands for only through its validators. */
function withoutContentHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _type, 'content-length': _length, ...rest } = headers;
  return rest;
}
