/**
 * API key material. Keys carry 32 random bytes, are shown once, and only their SHA-256 is stored: a
 * slow password hash buys nothing for 256-bit random secrets and would cost every request.
 */
import { createHash, randomBytes } from 'node:crypto';
/** What a key may do: read, change, publish to social channels. */
export type Scope = 'read' | 'write' | 'publish';

export const ALL_SCOPES: readonly Scope[] = ['read', 'write', 'publish'];
const KEY_PREFIX = 'rsk_';
/** 32 bytes in base64url are 43 characters. */
const KEY_PATTERN = /^rsk_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export interface NewKeyMaterial {
  raw: string;
  hash: string;
  prefix: string;
}

export function generateKeyMaterial(): NewKeyMaterial {
  const raw = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { raw, hash: hashKey(raw), prefix: displayPrefix(raw) };
}

export function hashKey(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

export function displayPrefix(raw: string): string {
  return raw.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** A key that cannot be ours is refused without a database read. */
export function isWellFormedKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

export function parseScopes(input: string): Scope[] {
  const scopes = input
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s as Scope));
  if (unknown.length > 0) throw new Error(`unknown scope(s): ${unknown.join(', ')} (allowed: ${ALL_SCOPES.join(', ')})`);
  if (scopes.length === 0) throw new Error('at least one scope is required');
  return [...new Set(scopes)] as Scope[];
}
