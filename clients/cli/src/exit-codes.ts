/**
 * Exit codes scripts can branch on (documented in the client's README, "CLI"), and the mapping from
 * what went wrong to one of them.
 */
import { ApiError } from '@reaction-studio/client';

export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  invalid: 5,
  limits: 6,
  jobFailed: 7,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Bad arguments: the command line itself is wrong, nothing was sent. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** No API key, from `login`, the config file or RS_API_KEY. */
export class NotSignedInError extends Error {
  override readonly name = 'NotSignedInError';
  readonly code = 'not_signed_in';
  constructor() {
    super('not signed in: run `reaction-studio login --key rsk_...` or set RS_API_KEY');
  }
}

/**
 * A local file the command names could not be read (nothing was sent: a usage error, exit 2) or
 * written (after the work was done: exit 1); the message names the path. `code` is the system's
 * (`ENOENT`, `EACCES`, `EISDIR`).
 */
export class LocalFileError extends Error {
  override readonly name = 'LocalFileError';
  constructor(
    readonly access: 'read' | 'write',
    readonly path: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A job waited for with --wait ended `failed`; code and message are the job's. */
export class JobFailedError extends Error {
  override readonly name = 'JobFailedError';
  constructor(
    readonly jobId: number,
    readonly code: string,
    message: string,
  ) {
    super(`job ${jobId} failed: ${message}`);
  }
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof LocalFileError) return error.access === 'read' ? EXIT.usage : EXIT.other;
  if (error instanceof NotSignedInError) return EXIT.auth;
  if (error instanceof JobFailedError) return EXIT.jobFailed;
  if (error instanceof ApiError) return exitCodeForStatus(error.status);
  return EXIT.other;
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  // 413 and 415: a file the API refused for its size or its kind, which no retry changes.
  if (status === 400 || status === 409 || status === 413 || status === 415 || status === 422) return EXIT.invalid;
  if (status === 402 || status === 429) return EXIT.limits;
  return EXIT.other;
}
