/**
 * What a use case tells the operator. Use cases do not reach the process logger themselves: the
 * operation hands its own in, and unit tests leave it out.
 */
export interface UseCaseLog {
  info(message: string, ...fields: Record<string, unknown>[]): void;
  warn(message: string, ...fields: Record<string, unknown>[]): void;
  error(message: string, ...fields: Record<string, unknown>[]): void;
}

const silentLog: UseCaseLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The log a use case was handed, or one that drops everything. */
export const logOf = (deps: { log?: UseCaseLog }): UseCaseLog => deps.log ?? silentLog;
