/**
 * First-party browser pages authenticate with the session cookie, which the browser attaches by
 * itself; a change made that way must also carry the session's CSRF token, which another site cannot read.
 */
import type { Middleware } from 'openapi-fetch';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfTokens(token: () => string | undefined): Middleware {
  return {
    onRequest({ request }) {
      const value = token();
      if (READS.has(request.method) || !value) return undefined;
      request.headers.set('X-CSRF-Token', value);
      return request;
    },
  };
}
