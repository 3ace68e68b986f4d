/**
 * Throttles on the unauthenticated sign-in routes, against password guessing and mass sign-ups.
 * Per email every sign-in attempt counts, not only failed ones: the limiter cannot take a count back,
 * and a check that ran only after a wrong password would still let the eleventh guess learn whether it
 * was right. Changing the password with a wrong current one counts against the same email.
 *
 * Password-reset requests have their own count per email, so asking for links cannot lock a person
 * out of signing in, and few enough that nobody can fill a stranger's inbox with them. Like the others
 * it counts before the email is looked up: an unknown address is throttled exactly like a known one.
 */
import type { RateLimitRule } from './sliding-window';

const MINUTE_MS = 60_000;

const SIGN_IN_ATTEMPTS_PER_EMAIL = { limit: 10, windowMs: 15 * MINUTE_MS } as const;
const AUTH_REQUESTS_PER_ADDRESS = { limit: 30, windowMs: MINUTE_MS } as const;
const RESET_REQUESTS_PER_EMAIL = { limit: 5, windowMs: 60 * MINUTE_MS } as const;

export const emailAttemptsRule = (email: string): RateLimitRule => ({ bucket: `sign-in:${email}`, ...SIGN_IN_ATTEMPTS_PER_EMAIL });
export const addressRule = (address: string): RateLimitRule => ({ bucket: `auth:${address}`, ...AUTH_REQUESTS_PER_ADDRESS });
export const resetRequestsRule = (email: string): RateLimitRule => ({ bucket: `password-reset:${email}`, ...RESET_REQUESTS_PER_EMAIL });
