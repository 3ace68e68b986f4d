/**
 * The studio's one API client: the project's typed client over the session cookie. The API is on the
 * page's own origin, so no CORS and no key in the browser; changes carry the session's CSRF token.
 */
import { createClient } from '#client/client';

let csrfToken: string | undefined;

/** Remembered from GET /auth/session (or sign-in) until sign-out. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const API_BASE = '/api/v1';

export const api = createClient({
  baseUrl: new URL(API_BASE, window.location.origin).href,
  session: { csrfToken: () => csrfToken },
  // A person is waiting: retry a busy API briefly, then say so instead of spinning.
  retry: { maxAttempts: 2, maxDelayMs: 5_000 },
});
