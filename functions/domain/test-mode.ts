/**
 * Test mode (docs/decisions.md, Test mode): a test key works on its account's test data, which lives
 * apart from the live data in a scope of its own. Every store already keys an account's records by
 * its id (one partition, one S3 prefix per account), so the test scope is simply another account id,
 * derived from the live one: nothing a live request can name reaches a test record, and the reverse,
 * without a filter any store could forget. The scope has no account record of its own: what belongs
 * to the account (its plan, caps, billing) is read from the live account it derives from.
 */
import type { KeyMode } from './api-keys';

/**
 * Above any id the account counter will reach, and with the scope id still a safe integer of at most
 * 16 digits (the table's key patterns allow that many).
 */
const TEST_SCOPE_OFFSET = 1_000_000_000_000_000;

/** The scope a key of `mode` works in for the account `accountId`. */
export function scopeOf(accountId: number, mode: KeyMode): number {
  if (isTestScope(accountId)) throw new RangeError(`account ${accountId} is already a test scope`);
  return mode === 'test' ? TEST_SCOPE_OFFSET + accountId : accountId;
}

/** Whether records under this account id are test data. */
export function isTestScope(scopeId: number): boolean {
  return scopeId > TEST_SCOPE_OFFSET;
}

/** The live account a scope belongs to: whose plan, caps and billing apply. */
export function accountOfScope(scopeId: number): number {
  return isTestScope(scopeId) ? scopeId - TEST_SCOPE_OFFSET : scopeId;
}

export function modeOfScope(scopeId: number): KeyMode {
  return isTestScope(scopeId) ? 'test' : 'live';
}

/**
 * Test jobs are never refused for units and never counted against the plan: their units are kept in
 * the test scope's own ledger (so a job's bookkeeping runs as for any other) under a limit no
 * month reaches.
 */
export const TEST_MONTHLY_LIMIT = 1_000_000_000;

/** Which engines work for a scope: test data is made offline, whatever engines the stack is configured with. */
export function engineRequestOf(scopeId: number): { offline: boolean } {
  return { offline: isTestScope(scopeId) };
}

/** Where a scope's social calls go: test data is published to the providers' sandboxes only. */
export function socialRequestOf(scopeId: number): { sandbox: boolean } {
  return { sandbox: isTestScope(scopeId) };
}

/** What the finished video of a test job shows in its corner. */
export const TEST_WATERMARK = 'TEST';
