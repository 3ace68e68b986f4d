/**
 * The render function's memory, from CDK context (`cdk deploy -c renderMemoryMb=10240`). Lambda gives
 * one vCPU per 1,769 MB, so memory is how a deployment buys ffmpeg speed; the default is the most a
 * new account may configure (3,008 MB until AWS raises the account's quota), so a first deploy works.
 */
import type { Construct } from 'constructs';
import { PIPELINE_FUNCTION_SIZES } from './function-sizes';

export const RENDER_MEMORY_CONTEXT = 'renderMemoryMb';
/** Lambda's own bounds for a function's memory. */
export const LAMBDA_MEMORY_MB = { min: 128, max: 10_240 } as const;
export const DEFAULT_RENDER_MEMORY_MB: number = PIPELINE_FUNCTION_SIZES.render.memoryMb;

export function renderMemoryFromContext(scope: Construct): number {
  const raw = scope.node.tryGetContext(RENDER_MEMORY_CONTEXT) as unknown;
  if (raw === undefined) return DEFAULT_RENDER_MEMORY_MB;
  // `-c renderMemoryMb=4096` arrives as a string, cdk.json as a number.
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < LAMBDA_MEMORY_MB.min || value > LAMBDA_MEMORY_MB.max) {
    throw new Error(`context ${RENDER_MEMORY_CONTEXT}=${String(raw)} must be a whole number of MB from ${LAMBDA_MEMORY_MB.min} to ${LAMBDA_MEMORY_MB.max}`);
  }
  return value;
}
