/** Where each fal call of a generation keeps its request (GenerationOptions.requests), and how it waits. */
import { ProviderPending, isProviderPending, type GenerationOptions, type ProviderRequestLog } from '#ports/engine';

/**
 * By model and seed: a generation retried with another seed (no face found in the first clip) is new
 * work, not a retry of the old request. A generation waiting by callback passes it on.
 */
export function keptAs(
  model: string,
  generation: Pick<GenerationOptions, 'requests' | 'seed' | 'callback'>,
): { requests?: ProviderRequestLog; slot?: string; callback?: GenerationOptions['callback'] } {
  if (!generation.requests) return {};
  return { requests: generation.requests, slot: `${model}#${generation.seed}`, ...(generation.callback ? { callback: generation.callback } : {}) };
}

/**
 * Calls made side by side (the reaction and its speech), all settled before answering: a call still
 * submitting when another one is pending must get its request kept before the step returns, or a
 * retry would pay for it again. A failure wins over pending ones; pending ones are reported together.
 */
export async function allOrPending<T extends readonly unknown[]>(calls: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !isProviderPending(s.reason));
  if (failed) throw failed.reason;
  const pending = settled.flatMap((s) => (s.status === 'rejected' ? (s.reason as ProviderPending).requestIds : []));
  if (pending.length > 0) throw new ProviderPending(pending);
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
