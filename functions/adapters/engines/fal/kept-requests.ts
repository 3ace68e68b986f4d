/** Where each fal call of a generation keeps its request (GenerationOptions.requests). */
import type { GenerationOptions, ProviderRequestLog } from '#ports/engine';

/**
 * By model and seed: a generation retried with another seed (no face found in the first clip) is new
 * work, not a retry of the old request.
 */
export function keptAs(model: string, generation: Pick<GenerationOptions, 'requests' | 'seed'>): { requests?: ProviderRequestLog; slot?: string } {
  return generation.requests ? { requests: generation.requests, slot: `${model}#${generation.seed}` } : {};
}
