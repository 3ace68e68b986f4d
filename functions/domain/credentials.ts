/**
 * Sign-in rules: how an email is normalised, which passwords are accepted, and how they are stored.
 * Passwords are hashed with scrypt (memory-hard: each guess costs ~32 MiB, so GPU farms pay dearly),
 * a fresh salt per hash, the parameters written into the stored string so they can be raised later
 * without breaking existing users.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { COMMON_PASSWORDS } from './common-passwords';

const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
export const EMAIL_MAX_LENGTH = 254;

/** The trimmed, lower-cased address, or undefined when it is not one address (one @, text either side, at most 254 characters). */
export function normaliseEmail(input: string): string | undefined {
  const email = input.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH) return undefined;
  const parts = email.split('@');
  if (parts.length !== 2) return undefined;
  const [local, domain] = parts as [string, string];
  if (local.length === 0 || !/^[^\s@]+\.[^\s@.]+$/.test(domain) || /\s/.test(local)) return undefined;
  return email;
}

/** Why a password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'is one of the most common passwords: choose another';
  return undefined;
}

/** N = 2^15, r = 8: 128·N·r = 32 MiB per hash, about 50-100 ms of one core. */
const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = SCRYPT_PARAMS;
  const key = await derive(password, salt, SCRYPT_PARAMS);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Hashed when the email is unknown, so a login with an unknown address takes as long as one with a
 * wrong password and the timing does not tell which was wrong.
 */
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = (): Promise<string> => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));
