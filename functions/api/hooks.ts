/**
 * POST /hooks: ten caption ideas for a product, from the configured hook engine. POST
 * /captions/preview: a caption drawn by the videos' own renderer, as a PNG.
 */
import type { Operation } from '#http/api-types';
import type { NeedsOf } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { ok } from '#http/respond';
import { hookRequest } from '#domain/schemas/hooks';
import { suggestHooks } from '#use-cases/suggest-hooks';
import { captionPreviewInput } from '#domain/schemas/captions';
import { previewCaption as drawPreview } from '#use-cases/preview-caption';

const create: Operation<NeedsOf<typeof suggestHooks>> = async (request) => {
  const body = await readRouteBody(request);
  try {
    const { product_id } = parseInput(hookRequest, body.fields, 'hooks request');
    return ok(await suggestHooks(request.deps, { accountId: request.principal.accountId, productId: product_id }));
  } finally {
    await body.cleanup();
  }
};

const previewCaption: Operation<NeedsOf<typeof drawPreview>> = async (request) => {
  const body = await readRouteBody(request);
  try {
    const caption = parseInput(captionPreviewInput, body.fields, 'caption preview');
    const png = await drawPreview(request.deps, { accountId: request.principal.accountId, caption });
    return {
      statusCode: 200,
      // Private: it may show a job's face box; the same inputs draw the same picture, so a browser may keep it.
      headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600', 'x-content-type-options': 'nosniff' },
      body: png.toString('base64'),
      isBase64Encoded: true,
    };
  } finally {
    await body.cleanup();
  }
};

export const hookOperations = { create, previewCaption };
