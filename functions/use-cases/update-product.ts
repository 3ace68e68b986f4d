/** Renames or re-describes a product; its demo is replaced only by a new product. */
import { notFound } from '#domain/errors';
import type { Product } from '#domain/product';
import type { Ports } from '#ports/ports';

export async function updateProduct(
  deps: Pick<Ports, 'products' | 'now'>,
  input: { accountId: number; productId: number; changes: { name?: string; description?: string | null } },
): Promise<Product> {
  const product = await deps.products.update(input.accountId, input.productId, input.changes, deps.now());
  if (!product) throw notFound('Product');
  return product;
}
