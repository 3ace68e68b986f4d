/**
 * Which refusals a route can answer. Most follow from the route's shape, the same way the middlewares
 * and #http helpers refuse them; the operation's own ones are listed in its contract (`errors` in route-contracts.ts).
 */
import { ERROR_CODES, type ErrorCode } from '#domain/errors';
import type { RouteDefinition } from '#functions/routes';
import { contractOf } from './route-contracts';

/**
 * What the HTTP layer refuses before any route is chosen or any body is read (the local server, or
 * API Gateway on AWS): the document's `default` answer, in the same envelope.
 */
export const TRANSPORT_CODES = [
  'bad_request',
  'method_not_allowed',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'expectation_failed',
  'headers_too_large',
] as const satisfies readonly ErrorCode[];

export function routeErrorCodes(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>(['internal_error']);
  if (route.auth !== 'none') {
    // A missing or unknown key or session, a missing scope (or a key where only a session will do), a missing CSRF token, and the per-account limit.
    codes.add('unauthorized').add('forbidden').add('rate_limited');
  }
  // Every route can be sent a malformed body (one without a body refuses any that says something,
  // http/body.ts refuseUnexpectedBody), and most also a malformed id, query or Idempotency-Key.
  codes.add('bad_request');
  if (/\{(id|webhook_id|delivery_id|music_id)\}/.test(route.path)) codes.add('not_found');
  // The key reused with another request, or sent again while its first request runs.
  if (route.idempotencyKey) codes.add('conflict');
  if (route.body) codes.add('payload_too_large').add('unsupported_media_type');
  // An upload is judged by its bytes (415), its size (413) and whether it decodes as promised (422).
  if (route.body?.files) codes.add('payload_too_large').add('unsupported_media_type').add('invalid_media');
  for (const code of contractOf(route).errors ?? []) codes.add(code);
  return [...codes].sort((a, b) => ERROR_CODES[a] - ERROR_CODES[b] || a.localeCompare(b));
}

/** Codes grouped by HTTP status, in status order. */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const grouped = new Map<number, ErrorCode[]>();
  for (const code of codes) grouped.set(ERROR_CODES[code], [...(grouped.get(ERROR_CODES[code]) ?? []), code]);
  return grouped;
}
