/**
 * Password resets by mailed link. The token is 32 random bytes (256 bits) in the link; only its
 * SHA-256 is stored (like a session token, a random secret that long needs no slow hash). A link
 * works for 30 minutes and once; asking again replaces the user's earlier link, so only the newest
 * works, and a password set any other way voids it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Mail } from './mail';
import type { User } from './user';

export const RESET_TOKEN_TTL_S = 30 * 60;
const TOKEN_BYTES = 32;
/** 32 bytes in base64url, unpadded. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The studio's page that reads the token from its address (studio/src/session/AuthPages.tsx). */
const RESET_PAGE_PATH = '/reset-password';

/** The user's pending reset, as stored: never the token itself. */
export interface PasswordReset {
  token_hash: string;
  account_id: number;
  user_id: number;
  created_at: string;
  expires_at: string;
}

export interface NewPasswordReset {
  /** The link's secret: it exists only in the mail. */
  token: string;
  record: PasswordReset;
}

export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token that cannot be one of ours is refused without a database read. */
export const isWellFormedResetToken = (candidate: string) => TOKEN_PATTERN.test(candidate);

export function newPasswordReset(user: Pick<User, 'id' | 'account_id'>, now: Date): NewPasswordReset {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return {
    token,
    record: {
      token_hash: hashResetToken(token),
      account_id: user.account_id,
      user_id: user.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_S * 1000).toISOString(),
    },
  };
}

export const isPasswordResetLive = (reset: PasswordReset, now: Date) => now.getTime() < Date.parse(reset.expires_at);

/** `<studio>/reset-password?token=…`; the token is base64url, safe in a query as it is. */
export const resetLink = (studioUrl: string, token: string) => `${studioUrl.replace(/\/+$/, '')}${RESET_PAGE_PATH}?token=${token}`;

export function passwordResetMail(to: string, link: string): Mail {
  const minutes = RESET_TOKEN_TTL_S / 60;
  return {
    to,
    subject: 'Reset your Reaction Studio password',
    text: [
      'Someone (we hope you) asked to reset the password of the Reaction Studio account of this address.',
      '',
      `Choose a new password here within ${minutes} minutes:`,
      link,
      '',
      'The link works once; asking again makes a new one and this one stops working. Setting the new',
      'password signs out every other session of the account.',
      '',
      'If you did not ask, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
