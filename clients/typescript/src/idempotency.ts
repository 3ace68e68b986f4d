/**
 * POST /videos reserves a unit of the monthly allowance and starts a render (POST /videos/batch one
 * per variant), so a client that lost the answer (a timeout, a dropped connection, a 429 it retries)
 * must be able to send it again without paying twice. The API takes an `Idempotency-Key` for that: a
 * repeat with the same key and request returns the first job (or batch). This middleware gives every
 * such POST a fresh UUID unless the caller set one; it runs before the retrying fetch, so every retry
 * of that call reuses the key.
 */
import type { Middleware } from 'openapi-fetch';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The schema paths of POST /videos and /videos/batch, whether the document's paths carry the /api/v1 prefix or not. */
const CREATE_VIDEO = /(^|\/)videos(\/batch)?$/;

export function idempotencyKeys(newKey: () => string = () => globalThis.crypto.randomUUID()): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (request.method !== 'POST' || !CREATE_VIDEO.test(schemaPath)) return undefined;
      if (!request.headers.has(IDEMPOTENCY_HEADER)) request.headers.set(IDEMPOTENCY_HEADER, newKey());
      return request;
    },
  };
}
