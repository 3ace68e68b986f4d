/** Deletes a product: its record first (so it disappears from lists and jobs see it gone), then its objects. */
import { notFound } from '#domain/errors';
import { productObjectPrefix } from '#domain/product';
import type { Ports } from '#ports/ports';

export async function removeProduct(deps: Pick<Ports, 'products' | 'blobs'>, input: { accountId: number; productId: number }): Promise<number> {
  const product = await deps.products.delete(input.accountId, input.productId);
  if (!product) throw notFound('Product');
  await deps.blobs.deletePrefix(productObjectPrefix(input.accountId, input.productId));
  return input.productId;
}
