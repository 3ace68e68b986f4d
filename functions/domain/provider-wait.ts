/**
 * A job waiting on its hosted engine by callback (docs/decisions.md, hosted engines by callback): the
 * execution parks at AwaitProvider with a task token, and the provider's completion webhook resumes it.
 * The webhook's URL names the job and carries a secret drawn for the job's round, kept on the job
 * before anything is submitted: a caller without it cannot resume (or even find) the job's wait.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Kept on the job while its round generates on a hosted engine. */
export interface ProviderWait {
  /** The round (`regenerations`) the secret was drawn for: a new round draws a new one. */
  round: number;
  /** 32 random bytes, base64url: the part of the webhook URL no one can guess. */
  secret: string;
  /** AwaitProvider's task token while the execution waits; null while a step runs. */
  token: string | null;
}

const SECRET_BYTES = 32;
/** `<account>.<job>.<secret>`: ids as the API writes them, the secret as drawn. */
const TICKET = /^([1-9][0-9]{0,14})\.([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;

/** The wait a round starts with, or the round's own when the step is entered again (its webhooks carry that secret). */
export function providerWaitFor(round: number, kept: ProviderWait | null | undefined): ProviderWait {
  if (kept && kept.round === round) return { ...kept, token: null };
  return { round, secret: randomBytes(SECRET_BYTES).toString('base64url'), token: null };
}

/** The path segment a webhook URL ends with. */
export const callbackTicket = (accountId: number, jobId: number, wait: ProviderWait): string => `${accountId}.${jobId}.${wait.secret}`;

/** The job a ticket names, or null when it is not one (then nothing is looked up). */
export function parseCallbackTicket(ticket: string): { accountId: number; jobId: number; secret: string } | null {
  const match = TICKET.exec(ticket);
  if (!match) return null;
  return { accountId: Number(match[1]), jobId: Number(match[2]), secret: match[3]! };
}

/** Constant-time: how much of a guess matched must not show in the answer's timing. */
export function secretMatches(wait: ProviderWait | null | undefined, secret: string): boolean {
  if (!wait) return false;
  const a = Buffer.from(wait.secret);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
