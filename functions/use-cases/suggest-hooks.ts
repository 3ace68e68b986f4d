/** Hook ideas for a product from the configured hook engine, within the AI-helper budget. */
import { AppError, notFound } from '#domain/errors';
import { HOOK_IDEAS_PER_REQUEST, HOOK_TEXT_MAX } from '#domain/schemas/hooks';
import { newSeed } from '#domain/seed';
import type { PartOf, Ports } from '#ports/ports';
import type { HookIdea } from '#ports/engine';
import { admitAiHelper, type AiHelperDeps } from './admit-ai-helper';
import { engineFailureToAppError } from './engine-failure';
import { engineRequestOf } from '#domain/test-mode';

export type SuggestHooksDeps = Pick<Ports, 'products'> & PartOf<'engines', 'hooks'> & AiHelperDeps;

export async function suggestHooks(deps: SuggestHooksDeps, input: { accountId: number; productId: number }): Promise<{ product_id: number; hooks: HookIdea[] }> {
  const product = await deps.products.get(input.accountId, input.productId);
  if (!product) throw notFound('product_id: product');
  await admitAiHelper(deps, input.accountId);
  const engine = await deps.engines.hooks(engineRequestOf(input.accountId));
  let ideas: HookIdea[];
  try {
    ideas = await engine.hookIdeas({ id: product.id, name: product.name, description: product.description }, { seed: newSeed(), count: HOOK_IDEAS_PER_REQUEST });
  } catch (error) {
    throw engineFailureToAppError(error, 'product');
  }
  // The engines promise this; the contract depends on it, so it is checked, not trusted.
  const fitting = ideas.filter((idea) => idea.text.length > 0 && idea.text.length <= HOOK_TEXT_MAX);
  if (fitting.length < HOOK_IDEAS_PER_REQUEST) {
    throw new AppError('upstream_unavailable', 'The hook generator returned too few usable ideas; retry', { headers: { 'retry-after': '5' } });
  }
  return { product_id: product.id, hooks: fitting.slice(0, HOOK_IDEAS_PER_REQUEST) };
}
