/**
 * Every step in one process, for the local runner: each function's table is loaded on first use.
 * Kept out of run-step.ts so a Lambda bundle never reaches the other function's code.
 */
import { runStepFrom } from './run-step';
import { PIPELINE_STEPS, type PipelineFunction, type StepPayload } from './steps';
import type { StepTable } from './step-tables';

const TABLES: Record<PipelineFunction, () => Promise<StepTable>> = {
  steps: async () => (await import('./bookkeeping-steps')).BOOKKEEPING_STEPS,
  render: async () => (await import('./render-steps')).RENDER_STEPS,
};

/** Any step, in this process (the local runner). `only` refuses a step of the other function. */
export async function runPipelineStep(payload: StepPayload, options: { signal?: AbortSignal; only?: PipelineFunction } = {}): Promise<unknown> {
  const fn = Object.hasOwn(PIPELINE_STEPS, payload.step) ? PIPELINE_STEPS[payload.step] : undefined;
  if (!fn || (options.only && fn !== options.only)) {
    throw new Error(`unknown pipeline step ${String(payload.step)}${options.only ? ` for the ${options.only} function` : ''}`);
  }
  return runStepFrom(await TABLES[fn](), payload, options.signal);
}
