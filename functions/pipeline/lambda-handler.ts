/**
 * The Lambda side of a pipeline function. The abort signal fires shortly before the function's own
 * timeout, so a generation stops cleanly and the state machine sees an error it can retry or catch.
 */
import type { Context } from 'aws-lambda';
import { runPipelineStep } from './run-step';
import type { PipelineFunction, StepPayload } from './steps';

const STOP_BEFORE_TIMEOUT_MS = 10_000;

export function pipelineHandler(only: PipelineFunction) {
  return async (payload: StepPayload, context?: Context): Promise<unknown> => {
    const controller = new AbortController();
    const remaining = context?.getRemainingTimeInMillis?.();
    const timer = remaining ? setTimeout(() => controller.abort(new Error('step time is up')), Math.max(1000, remaining - STOP_BEFORE_TIMEOUT_MS)) : undefined;
    try {
      return await runPipelineStep(payload, { signal: controller.signal, only });
    } finally {
      clearTimeout(timer);
    }
  };
}
