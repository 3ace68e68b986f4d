/** POST /hooks: ten caption ideas for a product, from the configured hook engine. */
import type { Operation } from '#http/api-types';
import { readBody } from '#http/body';
import { parseInput } from '#http/validate';
import { ok } from '#http/respond';
import { AppError, notFound } from '#domain/errors';
import { HOOK_IDEAS_PER_REQUEST, HOOK_TEXT_MAX, hookRequest } from '#domain/schemas/hooks';
import { getProduct } from '#adapters/dynamodb/products';
import { newSeed } from '#adapters/engines/seeded-random';
import { admitAiHelper } from './ai-helpers';
import { engineFailureToAppError } from './engine-errors';

const create: Operation = async (request) => {
  const body = await readBody(request.event, { accept: ['json', 'form', 'multipart'] });
  try {
    const { product_id } = parseInput(hookRequest, body.fields, 'hooks request');
    const accountId = request.principal.accountId;
    const product = await getProduct(accountId, product_id);
    if (!product) throw notFound('product_id: product');
    await admitAiHelper(accountId);
    const engine = await request.deps.engines.hooks();
    let ideas;
    try {
      ideas = await engine.hookIdeas(
        { id: product.id, name: product.name, description: product.description },
        { seed: newSeed(), count: HOOK_IDEAS_PER_REQUEST },
      );
    } catch (error) {
      throw engineFailureToAppError(error, 'product');
    }
    // The engines promise this; the contract depends on it, so it is checked, not trusted.
    const fitting = ideas.filter((idea) => idea.text.length > 0 && idea.text.length <= HOOK_TEXT_MAX);
    if (fitting.length < HOOK_IDEAS_PER_REQUEST) {
      throw new AppError('upstream_unavailable', 'The hook generator returned too few usable ideas; retry', {
        headers: { 'retry-after': '5' },
      });
    }
    return ok({ product_id: product.id, hooks: fitting.slice(0, HOOK_IDEAS_PER_REQUEST) });
  } finally {
    await body.cleanup();
  }
};

export const hookOperations = { create };
