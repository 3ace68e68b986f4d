/**
 * What a Task handler hands back to aws-local-stepfunctions, shaped the way the AWS path reports the
 * same outcome: a result is plain JSON (the library applies ResultSelector/ResultPath to it), a
 * failure an error whose name is the ASL Error (Retry and Catch match on it) and whose message is the
 * Cause.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A step's answer as JSON, the way a Lambda payload travels (undefined has no JSON form: null). */
export const toJson = (value: unknown): Json => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json));

/** What the lambda:invoke integration hands the state: the step's answer as the function's Payload. */
export const lambdaResult = (result: unknown): Json => ({ ExecutedVersion: '$LATEST', Payload: toJson(result), StatusCode: 200 });

/** The Error of a Task cut short because the runner stopped (the job is resumed by the next start). */
const ABORTED = 'Local.ExecutionStopped';

/** What a Task fails with: the name is the ASL Error (Retry and Catch match it), the message the Cause. */
export function taskError(name: string, cause: string): Error {
  const error = new Error(cause);
  error.name = name;
  return error;
}

/** A fresh error for a Task ended by stop(): each rejection gets its own, as the library may keep it. */
export const runnerStopped = (): Error => taskError(ABORTED, 'The local job runner stopped');

/**
 * A step's error as the lambda:invoke integration reports it: Error is the function's errorType (the
 * thrown error's name), Cause the function's error payload as JSON, exactly what mark_failed gets on AWS.
 */
export function stepError(error: unknown): Error {
  const e = error instanceof Error ? error : new Error(String(error));
  const errorType = e.name || 'Error';
  const cause = JSON.stringify({ errorType, errorMessage: e.message, trace: (e.stack ?? '').split('\n') });
  return taskError(errorType, cause);
}
