/**
 * Runs one Task step of a pipeline function: the Lambda entries (functions/handlers/job-steps.ts,
 * job-render.ts) and the local runner both come through here with the function's task map and their
 * runtime's dependencies, so both paths call the same code.
 */
import type { Context } from 'aws-lambda';
import { logger } from '#functions/logger';
import type { Ports, PortsIn, PortSource } from '#ports/ports';
import { PIPELINE_STEPS, type PipelineFunction, type StepPayload, type StepTasks, type TaskPorts, type TasksOf } from './steps';

export async function runStep(
  fn: PipelineFunction,
  tasks: StepTasks,
  payload: StepPayload,
  // The tasks' own ports besides: pipelineHandler's type holds its wiring to them.
  deps: Pick<Ports, 'metrics'>,
  signal?: AbortSignal,
): Promise<unknown> {
  const spec = Object.hasOwn(PIPELINE_STEPS, payload.step) ? PIPELINE_STEPS[payload.step] : undefined;
  // A function only runs the steps assigned to it, so a mis-wired state fails loudly instead of half-working.
  const task = spec?.fn === fn ? tasks[payload.step] : undefined;
  if (!task) throw new Error(`pipeline step ${String(payload.step)} is not run by the ${fn} function`);
  const started = Date.now();
  try {
    const result = await task(payload, deps, signal);
    logger.info('pipeline step done', { step: payload.step, jobId: payload.job_id, ms: Date.now() - started });
    return result ?? null;
  } catch (error) {
    logger.warn('pipeline step failed', { step: payload.step, jobId: payload.job_id, ms: Date.now() - started, error });
    throw error;
  } finally {
    if (fn === 'render') deps.metrics.record({ name: 'RenderSeconds', step: payload.step, seconds: (Date.now() - started) / 1000 });
  }
}

const STOP_BEFORE_TIMEOUT_MS = 10_000;

/** What a pipeline function is wired with: its steps' ports, and the metrics runStep records render time in. */
export type PipelinePorts<T> = PortsIn<TaskPorts<T>> & Pick<Ports, 'metrics'>;

/**
 * A pipeline function's Lambda handler. The abort signal fires shortly before the function's own
 * timeout, so a generation stops cleanly and the state machine sees an error it can retry or catch.
 */
export function pipelineHandler<F extends PipelineFunction, T extends TasksOf<F>>(fn: F, tasks: T, ports: PortSource<PipelinePorts<T>>) {
  return async (payload: StepPayload, context?: Context): Promise<unknown> => {
    const controller = new AbortController();
    if (context) logger.addContext(context);
    const remaining = context?.getRemainingTimeInMillis?.();
    const timer = remaining ? setTimeout(() => controller.abort(new Error('step time is up')), Math.max(1000, remaining - STOP_BEFORE_TIMEOUT_MS)) : undefined;
    try {
      return await runStep(fn, tasks, payload, ports(), controller.signal);
    } finally {
      clearTimeout(timer);
    }
  };
}
