/**
 * One entry point per step value: the Lambda handlers and the local runner both call this, so a
 * step behaves the same under Step Functions and under the local runner.
 */
import { logger } from '../http/logger';
import { prepare } from './tasks/prepare';
import { generateReaction } from './tasks/generate-reaction';
import { renderPreview } from './tasks/render-preview';
import { chargePreview } from './tasks/charge-preview';
import { awaitDecision } from './tasks/await-decision';
import { compose } from './tasks/compose';
import { finalize } from './tasks/finalize';
import { markFailed } from './tasks/mark-failed';
import { PIPELINE_STEPS, type PipelineFunction, type PipelineStep, type StepPayload } from './steps';

type StepHandler = (payload: StepPayload, signal?: AbortSignal) => Promise<unknown>;

const STEP_HANDLERS: Record<PipelineStep, StepHandler> = {
  prepare,
  generate_reaction: generateReaction,
  render_preview: renderPreview,
  charge_preview: chargePreview,
  await_decision: (payload) => awaitDecision(payload),
  compose,
  finalize: (payload) => finalize(payload),
  mark_failed: markFailed,
};

export async function runPipelineStep(payload: StepPayload, options: { signal?: AbortSignal; only?: PipelineFunction } = {}): Promise<unknown> {
  const handler = Object.hasOwn(STEP_HANDLERS, payload.step) ? STEP_HANDLERS[payload.step] : undefined;
  // A function only runs the steps assigned to it, so a mis-wired state cannot run media work in the small one.
  if (!handler || (options.only && PIPELINE_STEPS[payload.step] !== options.only)) {
    throw new Error(`unknown pipeline step ${String(payload.step)}${options.only ? ` for the ${options.only} function` : ''}`);
  }
  const started = Date.now();
  try {
    const result = await handler(payload, options.signal);
    logger.info('pipeline step done', { step: payload.step, jobId: payload.job_id, ms: Date.now() - started });
    return result ?? null;
  } catch (error) {
    logger.warn('pipeline step failed', { step: payload.step, jobId: payload.job_id, ms: Date.now() - started, error: String(error) });
    throw error;
  }
}
