/**
 * A hosted engine's completion webhook (use-cases/provider-callback.ts): public, since fal holds no
 * credential of ours; the ticket in the path is what it proves itself with.
 */
import type { PublicOperation } from '#http/api-types';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { ok } from '#http/respond';
import { falCallbackInput } from '#domain/schemas/provider-callback';
import { receiveProviderCallback } from '#use-cases/provider-callback';
import type { NeedsOf, Ports } from '#ports/ports';

const falCallback: PublicOperation<NeedsOf<typeof receiveProviderCallback> & Pick<Ports, 'inlineUploadMaxBytes'>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(falCallbackInput, body.fields, 'fal callback');
  const result = await receiveProviderCallback(request.deps, request.pathParameters.ticket ?? '', input.request_id);
  return ok({ received: true, result });
};

export const providerCallbackOperations = {
  falCallback: { public: falCallback },
};
