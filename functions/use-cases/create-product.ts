/**
 * Creates a product, with its demo video when one was uploaded: the upload is judged before anything
 * is written (a refused one leaves nothing behind) and normalised in the background.
 */
import { demoOriginalKey, type Product } from '#domain/product';
import type { Dependencies } from '#ports/dependencies';

export type CreateProductDeps = Pick<Dependencies, 'products' | 'blobs' | 'demoMedia' | 'tasks' | 'now'>;

export interface CreateProductInput {
  accountId: number;
  name: string;
  description?: string | null;
  /** The uploaded demo video, on disk. */
  demoPath?: string;
}

export async function createProduct(deps: CreateProductDeps, input: CreateProductInput): Promise<Product> {
  const { accountId } = input;
  const demo = input.demoPath ? await deps.demoMedia.inspect(input.demoPath) : undefined;
  const id = await deps.products.newProductId();
  const now = deps.now().toISOString();
  const product: Product = {
    id,
    account_id: accountId,
    name: input.name,
    description: input.description ?? null,
    demo: demo ? { status: 'processing', original_key: demoOriginalKey(accountId, id) } : null,
    created_at: now,
    updated_at: now,
  };
  if (demo && product.demo) await deps.blobs.putFile(product.demo.original_key, input.demoPath!, demo.contentType);
  try {
    await deps.products.create(product);
    if (product.demo) await deps.tasks.dispatch({ type: 'normalise-demo', accountId, productId: id, originalKey: product.demo.original_key });
  } catch (error) {
    await deps.products.delete(accountId, id).catch(() => undefined);
    if (product.demo) await deps.blobs.deleteKeys([product.demo.original_key]).catch(() => undefined);
    throw error;
  }
  return product;
}
