/**
 * Runs one Task step from a function's table: the Lambda handlers pass their own table, the local
 * runner (local-steps.ts) the one of the step's function, so both paths call the same code.
 */
import { logger } from '#http/logger';
import type { StepPayload } from './steps';
import type { StepTable } from './step-tables';

export async function runStepFrom(table: StepTable, payload: StepPayload, signal?: AbortSignal): Promise<unknown> {
  const handler = Object.hasOwn(table, payload.step) ? table[payload.step] : undefined;
  // A function only runs the steps assigned to it, so a mis-wired state fails loudly instead of half-working.
  if (!handler) throw new Error(`pipeline step ${String(payload.step)} is not run by this function`);
  const started = Date.now();
  try {
    const result = await handler(payload, signal);
    logger.info('pipeline step done', { step: payload.step, jobId: payload.job_id, ms: Date.now() - started });
    return result ?? null;
  } catch (error) {
    logger.warn('pipeline step failed', { step: payload.step, jobId: payload.job_id, ms: Date.now() - started, error: String(error) });
    throw error;
  }
}
