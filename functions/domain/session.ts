/**
 * Studio sessions: an opaque random token in the `rs_session` cookie, only its SHA-256 stored (like an
 * API key, a 256-bit random secret needs no slow hash). A session lives 7 days from its last use and
 * never past 30 days from sign-in; every request may slide the idle end, at most once per
 * TOUCH_RESOLUTION_MS so an active studio does not write on every call.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const SESSION_COOKIE = 'rs_session';
const SESSION_IDLE_S = 7 * 24 * 3600;
export const SESSION_ABSOLUTE_S = 30 * 24 * 3600;
const TOUCH_RESOLUTION_MS = 5 * 60_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SessionRecord {
  id: string;
  account_id: number;
  user_id: number;
  /** Sent back in X-CSRF-Token by state-changing cookie requests. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  /** The earlier of the idle and the absolute end. */
  expires_at: string;
  absolute_expires_at: string;
}

export interface NewSession {
  /** The cookie's value: it exists only in this answer and the browser. */
  token: string;
  hash: string;
  record: SessionRecord;
}

export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A cookie value that cannot be ours is refused without a database read. */
export const isWellFormedSessionToken = (candidate: string) => TOKEN_PATTERN.test(candidate);

const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

function expiryAt(lastSeen: Date, absolute: Date): string {
  const idle = plusSeconds(lastSeen, SESSION_IDLE_S);
  return (idle < absolute ? idle : absolute).toISOString();
}

export function newSession(accountId: number, userId: number, now: Date): NewSession {
  const token = randomBytes(32).toString('base64url');
  const absolute = plusSeconds(now, SESSION_ABSOLUTE_S);
  return {
    token,
    hash: hashSessionToken(token),
    record: {
      id: randomUUID(),
      account_id: accountId,
      user_id: userId,
      csrf_token: randomBytes(32).toString('base64url'),
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiryAt(now, new Date(absolute)),
      absolute_expires_at: absolute.toISOString(),
    },
  };
}

export const isSessionLive = (record: SessionRecord, now: Date) => now.getTime() < Date.parse(record.expires_at);

/** The session after a use at `now`, or undefined when its last recorded use is recent enough to leave be. */
export function slidSession(record: SessionRecord, now: Date): SessionRecord | undefined {
  if (now.getTime() - Date.parse(record.last_seen_at) < TOUCH_RESOLUTION_MS) return undefined;
  return { ...record, last_seen_at: now.toISOString(), expires_at: expiryAt(now, new Date(record.absolute_expires_at)) };
}

/** Seconds the cookie is kept: to the absolute end (the idle end is the server's to enforce). */
export const cookieMaxAgeS = (record: SessionRecord, now: Date) =>
  Math.max(0, Math.floor((Date.parse(record.absolute_expires_at) - now.getTime()) / 1000));
