/**
 * How a pipeline step fails. The error's name is what the ASL's Retry and Catch match on
 * (`Job.Retryable` is retried, `Job.Failed` goes straight to MarkFailed); its message carries the
 * `{code, message}` the job will show, as JSON, because that is what reaches MarkFailed as the Cause
 * both on Lambda (inside the error envelope) and in the local runner.
 */
import { JOB_ERROR_CODES, type JobError, type JobErrorCode } from '#domain/jobs';
import { isEngineError, type EngineError } from '#ports/engine';
import { FINAL_ERROR, RETRYABLE_ERROR, type TaskFailure } from './steps';

/** The Error a lambda:invoke Task reports when the function ran out of time. */
const LAMBDA_TIMED_OUT = 'Sandbox.Timedout';

export class PipelineError extends Error {
  readonly code: JobErrorCode;
  readonly detail: string;

  constructor(code: JobErrorCode, detail: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(JSON.stringify({ code, message: detail }), { cause: options.cause });
    this.name = options.retryable ? RETRYABLE_ERROR : FINAL_ERROR;
    this.code = code;
    this.detail = detail;
  }
}

export const inputDeleted = (what: string) =>
  new PipelineError('input_deleted', `${what} was deleted while the job was running; create a new job`);

/** Engine failures keep their own message (it says what to change); retryable ones are retried first. */
export function fromEngineError(error: EngineError): PipelineError {
  const code: JobErrorCode =
    error.code === 'invalid_input'
      ? 'invalid_input'
      : error.code === 'content_rejected'
        ? 'content_rejected'
        : error.code === 'provider_timeout'
          ? 'generation_timeout'
          : 'generation_failed';
  return new PipelineError(code, error.message, { retryable: error.retryable, cause: error });
}

export function toPipelineError(error: unknown, fallback: JobErrorCode): PipelineError {
  if (error instanceof PipelineError) return error;
  if (isEngineError(error)) return fromEngineError(error);
  return new PipelineError(fallback, JOB_ERROR_CODES[fallback], { cause: error });
}

/**
 * The job error for what the state machine caught. Our own failures carry their code; a Task
 * timeout, a Lambda crash or anything unforeseen becomes a generic code with advice.
 */
export function jobErrorOf(failure: TaskFailure | undefined): JobError {
  const cause = parseCause(failure?.Cause);
  if (cause && typeof cause.code === 'string' && cause.code in JOB_ERROR_CODES && typeof cause.message === 'string') {
    return { code: cause.code as JobErrorCode, message: cause.message };
  }
  // A Task past its TimeoutSeconds, or (what a state outliving its function sees first) the function's own timeout.
  if (failure?.Error === 'States.Timeout' || failure?.Error === LAMBDA_TIMED_OUT) return { code: 'timeout', message: JOB_ERROR_CODES.timeout };
  return { code: 'internal_error', message: JOB_ERROR_CODES.internal_error };
}

function parseCause(raw: string | undefined): Record<string, unknown> | undefined {
  let value: unknown = raw;
  // Lambda wraps the thrown error: {"errorType": ..., "errorMessage": "<our JSON>"}.
  for (let depth = 0; depth < 2 && typeof value === 'string'; depth++) {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
    if (value && typeof value === 'object' && 'errorMessage' in value) value = (value as { errorMessage: unknown }).errorMessage;
  }
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}
