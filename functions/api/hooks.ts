/** POST /hooks: ten caption ideas for a product, from the configured hook engine. */
import type { Operation } from '#http/api-types';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { ok } from '#http/respond';
import { hookRequest } from '#domain/schemas/hooks';
import { suggestHooks } from '#use-cases/suggest-hooks';

const create: Operation = async (request) => {
  const body = await readRouteBody(request);
  try {
    const { product_id } = parseInput(hookRequest, body.fields, 'hooks request');
    return ok(await suggestHooks(request.deps, { accountId: request.principal.accountId, productId: product_id }));
  } finally {
    await body.cleanup();
  }
};

export const hookOperations = { create };
