/**
 * API key material. Keys carry 32 random bytes, are shown once, and only their SHA-256 is stored: a
 * slow password hash buys nothing for 256-bit random secrets and would cost every request. A test
 * key (`rsk_test_…`) says so in its text, so a person reading a config file can tell it from a live one.
 */
import { createHash, randomBytes } from 'node:crypto';
/** What a key may do: read, change, publish to social channels. */
export type Scope = 'read' | 'write' | 'publish';

export const ALL_SCOPES: readonly Scope[] = ['read', 'write', 'publish'];

/** Live keys act on the account's data and allowance; test keys on its test data only (domain/test-mode). */
export type KeyMode = 'live' | 'test';
export const KEY_MODES: readonly KeyMode[] = ['live', 'test'];

const KEY_PREFIXES: Record<KeyMode, string> = { live: 'rsk_', test: 'rsk_test_' };
/** 32 bytes in base64url are 43 characters; a live key's random part may itself begin with "test_". */
const KEY_PATTERN = /^rsk_(test_)?[A-Za-z0-9_-]{43}$/;
/** The prefix shown in lists: the mode's prefix and 8 characters of the secret. */
const DISPLAY_SECRET_LENGTH = 8;

export interface NewKeyMaterial {
  raw: string;
  hash: string;
  prefix: string;
}

export function generateKeyMaterial(mode: KeyMode = 'live'): NewKeyMaterial {
  const raw = KEY_PREFIXES[mode] + randomBytes(32).toString('base64url');
  return { raw, hash: hashKey(raw), prefix: raw.slice(0, KEY_PREFIXES[mode].length + DISPLAY_SECRET_LENGTH) };
}

export function hashKey(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
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

/** A key as stored: never its raw value, only what identifies and limits it. */
export interface ApiKeyRecord {
  id: number;
  account_id: number;
  /** What its owner called it in the studio; keys made by the admin CLI have none. */
  name?: string;
  prefix: string;
  scopes: Scope[];
  /** Keys stored before test mode existed have none: they are live. */
  mode: KeyMode;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A key just made: the one moment its raw value exists outside the caller's hands. */
export interface CreatedApiKey {
  id: number;
  key: string;
  prefix: string;
  scopes: Scope[];
  mode: KeyMode;
}

/** Writing last_used_at on every request would double the writes for a value read by humans. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function isLastUseStale(record: ApiKeyRecord, now: Date): boolean {
  const last = record.last_used_at ? Date.parse(record.last_used_at) : 0;
  return now.getTime() - last >= LAST_USED_RESOLUTION_MS;
}

/** A key's record as created: never used, not revoked. */
export function newKeyRecord(id: number, accountId: number, prefix: string, scopes: readonly Scope[], now: Date, name?: string, mode: KeyMode = 'live'): ApiKeyRecord {
  return {
    id,
    account_id: accountId,
    ...(name === undefined ? {} : { name }),
    prefix,
    scopes: [...scopes],
    mode,
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
}
