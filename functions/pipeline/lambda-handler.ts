/**
 * The Lambda side of a pipeline function. The abort signal fires shortly before the function's own
 * timeout, so a generation stops cleanly and the state machine sees an error it can retry or catch.
 */
import type { Context } from 'aws-lambda';
import { runStepFrom } from './run-step';
import type { StepTable } from './step-tables';
import type { StepPayload } from './steps';

const STOP_BEFORE_TIMEOUT_MS = 10_000;

export function pipelineHandler(table: StepTable) {
  return async (payload: StepPayload, context?: Context): Promise<unknown> => {
    const controller = new AbortController();
    const remaining = context?.getRemainingTimeInMillis?.();
    const timer = remaining ? setTimeout(() => controller.abort(new Error('step time is up')), Math.max(1000, remaining - STOP_BEFORE_TIMEOUT_MS)) : undefined;
    try {
      return await runStepFrom(table, payload, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  };
}
