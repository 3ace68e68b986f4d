/**
 * An execution of the job machine that ended without reaching a Succeed or a recorded failure: its
 * TimeoutSeconds passed (which no Catch sees), someone stopped it, or it failed past MarkFailed. The
 * same mark-failed step then runs from outside the machine: on AWS from an EventBridge rule on the
 * execution's status change (functions/handlers/execution-ended.ts), locally from the runner
 * (lib/local/executions.ts). It is idempotent: a job already failed or done is left as it is, so the
 * executions that end FAILED after MarkFailed recorded the failure cost one read.
 */
import * as z from 'zod/mini';
import type { Ports } from '#ports/ports';
import { markFailed } from './tasks/mark-failed';
import { FINAL_ERROR, type TaskFailure } from './steps';

const ENDED_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;
type EndedStatus = (typeof ENDED_STATUSES)[number];

export interface EndedExecution {
  account_id: number;
  job_id: number;
  status: EndedStatus;
  /** The execution's Error and Cause, when it FAILED. */
  error?: string;
  cause?: string;
}

/** The failure each ending is recorded with: its own code and message where the execution gave none. */
function failureOfEnded(ended: EndedExecution): TaskFailure {
  if (ended.status === 'TIMED_OUT') {
    return { Error: FINAL_ERROR, Cause: JSON.stringify({ code: 'timeout', message: 'The job ran past the longest time a job may take; try again' }) };
  }
  if (ended.status === 'ABORTED') {
    return { Error: FINAL_ERROR, Cause: JSON.stringify({ code: 'internal_error', message: "The job's execution was stopped; try again" }) };
  }
  return { Error: ended.error ?? 'States.Runtime', ...(ended.cause === undefined ? {} : { Cause: ended.cause }) };
}

export type EndedDeps = Pick<Ports, 'jobs' | 'ledger' | 'blobs' | 'now'>;

/** Fails the job of an execution that ended so (status failed with a code, reserved units released). */
export async function failEndedExecution(deps: EndedDeps, ended: EndedExecution): Promise<void> {
  await markFailed({ step: 'mark_failed', account_id: ended.account_id, job_id: ended.job_id, failure: failureOfEnded(ended) }, deps);
}

/** What the Step Functions "Execution Status Change" event carries that this needs. */
const statusChangeEvent = z.object({
  detail: z.object({
    status: z.enum(ENDED_STATUSES),
    // The execution's input as JSON text (JobExecutionInput).
    input: z.string(),
    error: z.nullish(z.string()),
    cause: z.nullish(z.string()),
  }),
});

const executionInput = z.object({ account_id: z.int(), job_id: z.int() });

/** The ended execution an EventBridge event describes; undefined for an event that names no job. */
export function endedExecutionOf(event: unknown): EndedExecution | undefined {
  const parsed = statusChangeEvent.safeParse(event);
  if (!parsed.success) return undefined;
  let input: unknown;
  try {
    input = JSON.parse(parsed.data.detail.input);
  } catch {
    return undefined;
  }
  const ids = executionInput.safeParse(input);
  if (!ids.success) return undefined;
  const { status, error, cause } = parsed.data.detail;
  return { ...ids.data, status, ...(error ? { error } : {}), ...(cause ? { cause } : {}) };
}
