/**
 * The Idempotency-Key header and what makes two requests "the same" for it: method, path, media type
 * and body. A multipart body is compared with its boundary taken out, since a client draws a new
 * boundary for every send of the same form.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '#domain/errors';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_RULE } from '#domain/idempotency';
import type { ApiEvent } from './api-types';
import { bodyBytes } from './body';

export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** The header's key, checked for shape; undefined when none was sent. */
export function idempotencyKeyOf(event: ApiEvent): string | undefined {
  const raw = event.headers?.['idempotency-key'];
  if (raw === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(raw)) throw badRequest(IDEMPOTENCY_KEY_RULE, 'Idempotency-Key');
  return raw;
}

export const keyHashOf = (key: string) => createHash('sha256').update(key).digest('hex');

export function requestHashOf(event: ApiEvent): string {
  const contentType = event.headers?.['content-type'] ?? '';
  const [mediaType = '', ...params] = contentType.split(';').map((part) => part.trim());
  const boundary = params.find((p) => /^boundary=/i.test(p))?.slice('boundary='.length).replace(/^"|"$/g, '');
  // latin1 keeps every byte as one character, so taking the boundary out leaves the rest byte for byte.
  let body = bodyBytes(event).toString('latin1');
  if (boundary) body = body.split(boundary).join('');
  return createHash('sha256')
    .update([event.requestContext?.http?.method ?? '', event.rawPath ?? '', mediaType.toLowerCase(), ''].join('\0'))
    .update(body, 'latin1')
    .digest('hex');
}
