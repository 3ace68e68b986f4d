/**
 * Creates a product, with its demo video when one was uploaded (a multipart part or a direct upload):
 * the file is judged before anything is written (a refused one leaves nothing behind), with what the
 * request asked of it (a reframe, a trim), and normalised in the background as asked.
 */
import { intakeWithoutDemo, judgeDemo, type DemoIntake } from '#domain/demo-intake';
import { demoOriginalKey, type Product } from '#domain/product';
import type { Ports } from '#ports/ports';
import { withFile, type FileSource, type UseUploadDeps } from './use-upload';

export type CreateProductDeps = Pick<Ports, 'products' | 'blobs' | 'demoMedia' | 'tasks' | 'now'> & UseUploadDeps;

export interface CreateProductInput {
  accountId: number;
  name: string;
  description?: string | null;
  /** The demo video: a multipart part on disk, or a direct upload's id. */
  demo?: FileSource;
  /** How to take the demo in (domain/demo-intake.ts); null or absent: as it is. */
  intake?: DemoIntake | null;
}

export async function createProduct(deps: CreateProductDeps, input: CreateProductInput): Promise<Product> {
  if (!input.demo) {
    if (input.intake) throw intakeWithoutDemo(input.intake);
    return create(deps, input, undefined);
  }
  return withFile(deps, input.accountId, 'demo_video', input.demo, (path) => create(deps, input, path));
}

async function create(deps: CreateProductDeps, input: CreateProductInput, demoPath: string | undefined): Promise<Product> {
  const { accountId } = input;
  const demo = demoPath ? await deps.demoMedia.inspect(demoPath) : undefined;
  if (demo) judgeDemo(demo, input.intake ?? null);
  const id = await deps.products.newProductId();
  const now = deps.now().toISOString();
  const product: Product = {
    id,
    account_id: accountId,
    name: input.name,
    description: input.description ?? null,
    demo: demo ? { status: 'processing', original_key: demoOriginalKey(accountId, id) } : null,
    ...(demo && input.intake ? { demo_intake: input.intake } : {}),
    created_at: now,
    updated_at: now,
  };
  if (demo && product.demo) await deps.blobs.putFile(product.demo.original_key, demoPath!, demo.contentType);
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
